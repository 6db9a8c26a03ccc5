import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { parseTraceparent, type TraceParent } from './trace-context';

/** issue 28: the W3C header a caller's span comes in on (REST, and the GraphQL HTTP request). */
export const TRACEPARENT_HEADER = 'traceparent';

/** The caller's span of a request, or undefined when none came or it is malformed (W3C: ignored, never refused). */
export function callerTrace(headers: Record<string, string | string[] | undefined> | undefined): TraceParent | undefined {
  return parseTraceparent(headers?.[TRACEPARENT_HEADER]);
}

/** The optional `traceparent` header on an operation's OpenAPI entry: what it makes a child of the caller's span. */
export function ApiTraceparent(what: string): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: TRACEPARENT_HEADER,
      required: false,
      description:
        `W3C trace context (00-<trace id>-<span id>-<flags>): ${what} nests under the caller's span in the caller's trace ` +
        '(recorded on the event, exported with SWITCHBOARD_TRACES=on; see docs/observability.md). A malformed value is ignored.',
      schema: { type: 'string', example: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    }),
  );
}

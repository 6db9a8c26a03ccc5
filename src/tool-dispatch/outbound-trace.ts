import { formatTraceparent, type RecordedTrace, SpanIds } from '../common';

/**
 * issue 28: the `traceparent` Switchboard sends with a call it makes for a session (a webhook tool, a
 * hook webhook), naming the span the traces projection writes for that call, in the session's current
 * trace (its last message's). Undefined while the session has no trace yet (no message sent).
 */
type TracedSession = { sessionId: string; trace?: RecordedTrace };

/** A tool call's execute_tool span; the session's current span when the CLI gave no call id. */
export function toolCallTraceparent(session: TracedSession, toolCallId: string | undefined): string | undefined {
  const trace = session.trace;
  if (!trace) return undefined;
  return formatTraceparent(trace.traceId, toolCallId ? SpanIds.tool(session.sessionId, toolCallId) : trace.spanId);
}

/** A hook call's execute_hook span: keyed by the `requestId` its `hook.invoked` records. */
export function hookTraceparent(session: TracedSession, requestId: string): string | undefined {
  const trace = session.trace;
  return trace ? formatTraceparent(trace.traceId, SpanIds.hook(session.sessionId, requestId)) : undefined;
}

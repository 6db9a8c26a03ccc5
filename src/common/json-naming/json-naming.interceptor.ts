import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { ThrottledWarning } from '../throttled-warning';
import { camelCaseKeys, type LegacyKeyScope, renameLegacyKeys, type RenamedKey, SNAKE_CASE_INPUT_REMOVED_IN } from './json-naming';

export interface JsonNamingOptions {
  /** Where the old snake_case spelling of request keys is accepted (body and query alike). */
  legacyInput: LegacyKeyScope;
  /** Answer in camelCase (for views that are snake_case inside because the tool results share them). */
  camelCaseResponse: boolean;
  /** Response keys whose values are someone else's JSON and keep their keys. */
  opaque?: readonly string[];
}

const logger = new Logger('ApiNaming');
const deprecatedInput = new ThrottledWarning(logger, 'more requests used snake_case keys, not logged one by one');

/**
 * The JSON API's one naming convention at the REST boundary: renames the deprecated snake_case
 * request keys before the validation pipes see them (telling the caller with `Deprecation` and
 * `Warning` headers and a rate-limited log line), and turns snake_case views into camelCase answers.
 */
@Injectable()
export class JsonNamingInterceptor implements NestInterceptor {
  private readonly opaque: ReadonlySet<string>;

  constructor(private readonly options: JsonNamingOptions) {
    this.opaque = new Set(options.opaque ?? []);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const renamed: RenamedKey[] = [];
    const body = renameLegacyKeys(request.body, this.options.legacyInput);
    if (body.renamed.length > 0) {
      request.body = body.value;
      renamed.push(...body.renamed);
    }
    const query = renameLegacyKeys(request.query, this.options.legacyInput);
    if (query.renamed.length > 0) {
      // Express 5 parses `req.query` in a getter on each read: an own property shadows it.
      Object.defineProperty(request, 'query', { value: query.value, writable: true, configurable: true, enumerable: true });
      renamed.push(...query.renamed);
    }
    if (renamed.length > 0) warnDeprecated(request, http.getResponse<Response>(), renamed);
    const answer = next.handle();
    return this.options.camelCaseResponse ? answer.pipe(map((value: unknown) => camelCaseKeys(value, this.opaque))) : answer;
  }
}

function warnDeprecated(request: Request, response: Response, renamed: RenamedKey[]): void {
  const spelled = renamed.map(({ from, to }) => `${to} (not ${from})`).join(', ');
  const text = `snake_case keys are deprecated and refused from ${SNAKE_CASE_INPUT_REMOVED_IN}: use ${spelled}`;
  response.setHeader('Deprecation', 'true');
  // A Warning header's text is a quoted-string: no quotes or backslashes inside.
  response.setHeader('Warning', `299 - "${text.replace(/["\\]/g, '')}"`);
  deprecatedInput.warn({ method: request.method, path: request.path, keys: renamed.map((r) => r.from) }, 'request used deprecated snake_case keys');
}

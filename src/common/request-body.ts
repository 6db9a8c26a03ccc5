import { json, type RequestHandler } from 'express';
import { codeOfStatus } from './graphql-error';
import { assertJsonInput } from './json-limits';

/** The largest request body accepted, on every route. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** What the filter answers for a body refused before any route ran. */
export interface RefusedBody {
  statusCode: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * JSON bodies on every path (routes, /health, unknown paths alike): parsed within the size limit,
 * then refused when nested deeper than MAX_JSON_DEPTH or holding text that is not Unicode, before
 * any controller or resolver sees them.
 */
export function jsonBodyParsers(): RequestHandler[] {
  const depthLimit: RequestHandler = (request, _response, next) => {
    try {
      assertJsonInput(request.body);
      next();
    } catch (error) {
      next(error);
    }
  };
  return [json({ limit: MAX_BODY_BYTES }), depthLimit];
}

/** The fields body-parser and raw-body put on the errors they raise (http-errors). */
interface BodyParserError extends Error {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  code?: string;
  limit?: number;
  length?: number;
  received?: number;
  expected?: number;
  charset?: string;
  encoding?: string;
}

/**
 * The client's mistake behind an error body-parser raised (they reach Nest's filter as plain
 * errors with a 4xx `status`), with what to change; undefined for anything else. Malformed JSON is
 * not among them: Nest already turns body-parser's SyntaxError into a 400.
 */
export function refusedBodyOf(error: unknown): RefusedBody | undefined {
  if (!(error instanceof Error)) return undefined;
  const e = error as BodyParserError;
  const status = e.status ?? e.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499 || e.expose !== true) return undefined;
  switch (e.type) {
    case 'entity.too.large':
      return {
        statusCode: 413,
        code: 'payload_too_large',
        message: `The request body is ${e.length === undefined ? 'larger than the limit' : `${e.length} bytes`}; at most ${e.limit ?? MAX_BODY_BYTES} bytes are accepted: send a smaller body`,
        details: { limit: e.limit ?? MAX_BODY_BYTES, ...(e.length === undefined ? {} : { length: e.length }) },
      };
    case 'charset.unsupported':
      return {
        statusCode: 415,
        code: 'unsupported_media_type',
        message: `Unsupported charset ${JSON.stringify(e.charset ?? '')}: send JSON as UTF-8 (Content-Type: application/json; charset=utf-8)`,
        details: { charset: e.charset },
      };
    case 'encoding.unsupported':
      return {
        statusCode: 400,
        code: 'invalid_input',
        message: `Unsupported Content-Encoding ${JSON.stringify(e.encoding ?? '')}: send the body uncompressed, or compressed with gzip, deflate or br`,
        details: { encoding: e.encoding },
      };
    case 'request.aborted':
      return {
        statusCode: 400,
        code: 'invalid_input',
        message: 'The request ended before its whole body arrived: send as many bytes as Content-Length says',
      };
    case 'request.size.invalid':
      return {
        statusCode: 400,
        code: 'invalid_input',
        message: `The body is ${e.received} bytes but Content-Length says ${e.expected}: send a Content-Length that matches the body`,
      };
  }
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) {
    // zlib could not decompress what Content-Encoding announced.
    return {
      statusCode: 400,
      code: 'invalid_input',
      message: `The body does not decompress as its Content-Encoding says (${e.message}): send it uncompressed, or compressed as declared`,
    };
  }
  return { statusCode: status, code: codeOfStatus(status), message: `The request was refused: ${e.message}` };
}

import { Logger } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { endWithJson } from './raw-http-answer';

const REFUSAL_BY_PARSER_CODE: Record<string, { statusCode: number; code: string; hint: string }> = {
  HPE_HEADER_OVERFLOW: { statusCode: 431, code: 'headers_too_large', hint: 'send fewer or smaller headers' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { statusCode: 413, code: 'payload_too_large', hint: 'send shorter chunk extensions' },
  ERR_HTTP_REQUEST_TIMEOUT: { statusCode: 408, code: 'request_timeout', hint: 'send the whole request sooner' },
  HPE_INVALID_EOF_STATE: { statusCode: 400, code: 'invalid_input', hint: 'the connection ended before the body Content-Length announced: send all of it' },
};

/**
 * Requests Node's HTTP parser refuses (bad header bytes, a body longer than its Content-Length, a
 * connection closed mid-body) and Expect headers other than 100-continue never reach Nest; Node
 * answers them with a bare 400 or 417 and no body. This answers them in the service's JSON error
 * shape instead, logged as a warning without a stack.
 */
export function answerMalformedRequestsAsJson(server: Server): void {
  const logger = new Logger('HttpErrors');
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expectation = String(request.headers.expect ?? '');
    logger.warn({ statusCode: 417, expect: expectation.slice(0, 100) }, 'unsupported Expect header refused');
    response.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' });
    response.end(
      JSON.stringify({
        statusCode: 417,
        code: 'expectation_failed',
        message: `Unsupported Expect header ${JSON.stringify(expectation.slice(0, 100))}: send no Expect header, or Expect: 100-continue`,
      }),
    );
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    // Node's own rule: nothing can be written on a reset or closed socket, or after a response began.
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = REFUSAL_BY_PARSER_CODE[error.code ?? ''] ?? { statusCode: 400, code: 'invalid_input', hint: 'send a well-formed HTTP/1.1 request' };
    const message = `The request is not valid HTTP (${error.message}): ${refusal.hint}`;
    logger.warn({ statusCode: refusal.statusCode, code: error.code, reason: error.message }, 'malformed HTTP request refused');
    endWithJson(socket, refusal.statusCode, { statusCode: refusal.statusCode, code: refusal.code, message });
  });
}

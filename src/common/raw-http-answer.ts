import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Answers on a raw socket, where no express response exists (a refused WebSocket handshake, a
 * request Node's parser rejected): one JSON body, then the connection is closed.
 */
export function endWithJson(socket: Duplex, statusCode: number, payload: object): void {
  const body = JSON.stringify(payload);
  socket.end(
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

import { HttpStatus, HttpException } from '@nestjs/common';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { InvalidInputError } from '../common';

/**
 * What the transport would refuse in JSON-RPC's own error shape, refused first in the service's (the one
 * error shape every route answers, docs/api.md): a client that cannot read a stream, a body that is not
 * JSON, a body that is not a JSON-RPC message of MCP. What passes, the SDK's transport reads as it is.
 */
export function checkMcpRequest(headers: Record<string, string | string[] | undefined>, body: unknown): void {
  const accept = String(headers.accept ?? '');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    throw new HttpException(
      { code: 'not_acceptable', message: 'Accept must name both application/json and text/event-stream (MCP Streamable HTTP)' },
      HttpStatus.NOT_ACCEPTABLE,
    );
  }
  if (!String(headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpException({ code: 'unsupported_media_type', message: 'Content-Type must be application/json' }, HttpStatus.UNSUPPORTED_MEDIA_TYPE);
  }
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0 || !messages.every((message) => JSONRPCMessageSchema.safeParse(message).success)) {
    throw new InvalidInputError(
      'the body must be a JSON-RPC 2.0 message of MCP (or a batch of them), like {"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    );
  }
}

import { HttpException } from '@nestjs/common';
import { InvalidInputError } from '../common';
import { checkMcpRequest } from './mcp-request';

const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

describe('an MCP request before the transport reads it', () => {
  it('lets a JSON-RPC request, notification or batch through', () => {
    expect(() => checkMcpRequest(headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).not.toThrow();
    expect(() => checkMcpRequest(headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).not.toThrow();
    expect(() => checkMcpRequest(headers, [{ jsonrpc: '2.0', id: 1, method: 'ping' }])).not.toThrow();
  });

  it('refuses, in the service error shape, a client that cannot read a stream, a body that is not JSON, and one that is no JSON-RPC', () => {
    const statusOf = (h: Record<string, string>, body: unknown) => {
      try {
        checkMcpRequest(h, body);
        return 'passed';
      } catch (error) {
        return error instanceof HttpException ? error.getStatus() : error instanceof InvalidInputError ? 400 : 'other';
      }
    };
    expect(statusOf({ ...headers, accept: 'application/json' }, { jsonrpc: '2.0', id: 1, method: 'ping' })).toBe(406);
    expect(statusOf({ ...headers, 'content-type': 'text/plain' }, { jsonrpc: '2.0', id: 1, method: 'ping' })).toBe(415);
    expect(statusOf(headers, { id: 1, method: 'ping' })).toBe(400);
    expect(statusOf(headers, [])).toBe(400);
    expect(statusOf(headers, 'tools/list')).toBe(400);
  });
});

import { z } from 'zod';
import type { ControllerAnswers } from '../common';
import type { McpController } from './mcp.controller';

/** What `/mcp` answers: MCP's JSON-RPC over Streamable HTTP (docs/mcp-and-a2a.md has the tools). */
export const MCP_ANSWERS: ControllerAnswers<Pick<McpController, 'post'>> = {
  answers: {
    post: {
      status: 200,
      description:
        'One JSON-RPC message of MCP (Accept: application/json, text/event-stream): the answer as a server-sent event stream, progress notifications first; 202 for a notification',
      contentType: 'text/event-stream',
      schema: z.string(),
      example: 'event: message\ndata: {"result":{"content":[{"type":"text","text":"LGTM"}]},"jsonrpc":"2.0","id":2}\n\n',
      request: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_agent', arguments: { agent: 'reviewer', prompt: 'Review the diff' } } },
    },
  },
};

import { z } from 'zod';
import type { ControllerAnswers } from '../common';
import type { A2aController } from './a2a.controller';

/** What `/a2a/<agentId>` answers: the agent's card, and A2A's JSON-RPC (docs/mcp-and-a2a.md has the task states). */
export const A2A_ANSWERS: ControllerAnswers<Pick<A2aController, 'card' | 'jsonRpc'>> = {
  answers: {
    card: {
      status: 200,
      description: "The agent's A2A card (A2A 1.0): name, description, skills, its JSON-RPC and HTTP+JSON interfaces, the bearer security scheme",
      schema: z
        .object({
          name: z.string(),
          description: z.string(),
          supportedInterfaces: z.array(z.object({ url: z.string(), protocolBinding: z.string() }).loose()),
        })
        .loose(),
      example: {
        name: 'Reviewer',
        description: 'Reviews diffs',
        supportedInterfaces: [
          { url: 'http://127.0.0.1:3000/a2a/reviewer', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          { url: 'http://127.0.0.1:3000/a2a/reviewer', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        ],
        skills: [{ id: 'reviewer', name: 'Reviewer', description: 'Reviews diffs', tags: ['switchboard', 'team'] }],
      },
    },
    jsonRpc: {
      status: 200,
      description:
        'One A2A JSON-RPC request: the result (a Task), an A2A error object, or for SendStreamingMessage and SubscribeToTask a server-sent event stream of task updates',
      schema: z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number(), z.null()]) }).loose(),
      example: {
        jsonrpc: '2.0',
        id: 1,
        result: { task: { id: '0190a1b2-0000-7000-8000-000000000001', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } } },
      },
      request: {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'Review the diff' }] } },
      },
    },
  },
};

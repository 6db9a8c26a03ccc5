import { z } from 'zod';
import { type ControllerAnswers, SESSION_ID, AT, iso, nullable, uuidParameter } from '../common';
import type { SessionRequestsController } from './session-requests.controller';

const REQUEST_ID = 'b7e4d2a0-1c3f-4e5a-9b8c-7d6e5f4a3b2c';

const routedRequest = z.object({
  position: z.number().int(),
  kind: z.string(),
  parentSessionId: z.string(),
  childSessionId: nullable(z.string()),
  agentName: nullable(z.string()),
  toolName: nullable(z.string()),
  arguments: z.unknown(),
  result: z.unknown(),
  outcome: z.string(),
  reason: nullable(z.string()),
  latencyMs: nullable(z.number()),
  recordedAt: iso,
});
const pendingQuestion = z.object({
  requestId: z.string(),
  sessionId: z.string(),
  childSessionId: z.string().optional(),
  agentName: z.string().optional(),
  question: z.string(),
  choices: z.array(z.string()),
  allowFreeform: z.boolean(),
  askedAt: iso,
});

/** What a session's routed requests and questions answer. */
export const SESSION_REQUESTS_ANSWERS: ControllerAnswers<SessionRequestsController> = {
  answers: {
    requests: {
      status: 200,
      description: 'Routed requests, in order',
      schema: z.object({ requests: z.array(routedRequest), nextAfter: z.number().int() }),
      example: {
        requests: [
          {
            position: 1233,
            kind: 'tool_call',
            parentSessionId: SESSION_ID,
            childSessionId: null,
            agentName: null,
            toolName: 'lookup',
            arguments: { key: 'release' },
            result: { textResultForLlm: '2026.11' },
            outcome: 'success',
            reason: null,
            latencyMs: 38,
            recordedAt: AT,
          },
        ],
        nextAfter: 1233,
      },
    },
    pending: {
      status: 200,
      description: 'Questions waiting for an answer',
      schema: z.object({ pending: z.array(pendingQuestion) }),
      example: {
        pending: [
          {
            requestId: REQUEST_ID,
            sessionId: SESSION_ID,
            question: 'Which branch should I review?',
            choices: ['main', 'release'],
            allowFreeform: true,
            askedAt: AT,
          },
        ],
      },
    },
    answer: {
      status: 200,
      description: 'Answered',
      schema: z.object({ requestId: z.string(), answered: z.literal(true) }),
      example: { requestId: REQUEST_ID, answered: true },
      request: { answer: 'main', wasFreeform: false },
    },
  },
  pathParameters: { id: uuidParameter(SESSION_ID), requestId: { example: REQUEST_ID } },
};

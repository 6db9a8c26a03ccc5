import { z } from 'zod';
import { type ControllerAnswers, SESSION_ID, RUN_ID, MODEL_CALL_ID, AT, LATER, iso, nullable, uuidParameter } from '../common';
import type { ModelCallsController } from './model-calls.controller';

const modelCallView = z.object({
  callId: z.string(),
  status: z.enum(['in_flight', 'succeeded', 'failed', 'cancelled', 'refused', 'interrupted']),
  sessionId: z.string().describe('the CLI session that made it: a session, or a run thread sub-agent-<runId>'),
  agentName: z.string(),
  subagentId: nullable(z.string()).describe('the CLI sub-agent (task) that made it'),
  runId: nullable(z.string()),
  rootRunId: nullable(z.string()),
  lineagePath: z.array(z.string()).describe('agent names from the top of the team down to the caller'),
  provider: z.string(),
  model: z.string(),
  interactionType: nullable(z.string()),
  initiator: nullable(z.string()),
  requestBytes: z.number().int(),
  messageCount: z.number().int(),
  toolCount: z.number().int(),
  stream: z.boolean(),
  httpStatus: nullable(z.number().int()),
  ttfbMs: nullable(z.number().int()),
  durationMs: nullable(z.number().int()),
  inputTokens: nullable(z.number().int()),
  outputTokens: nullable(z.number().int()),
  cachedInputTokens: nullable(z.number().int()),
  reasoningTokens: nullable(z.number().int()),
  responseId: nullable(z.string()),
  finishReason: nullable(z.string()),
  cost: nullable(z.number()).describe('in currency; null when the model has no price (unknown, never 0)'),
  currency: nullable(z.string()),
  error: nullable(z.string()),
  startedAt: iso,
  endedAt: nullable(iso),
  replay: nullable(
    z.object({
      source: z.enum(['record', 'live']).describe('record: the original answer was played back, nothing reached the model; live: sent to the model'),
      originalCallId: nullable(z.string()).describe('the original call it was matched to (same agent, same position)'),
      position: nullable(z.number().int()).describe("1-based position among its agent's calls in its session"),
      divergence: nullable(
        z.object({
          part: z.enum(['system', 'tools', 'messages', 'model', 'missing']),
          at: z.string().optional().describe('a message index, a tool name, a character'),
          original: z.string().optional().describe('what the original call had there (cut to 4 KB)'),
          now: z.string().optional().describe('what this call has there (cut to 4 KB)'),
        }),
      ).describe("the first difference from the original's request; null when none"),
      forkPoint: z.boolean().describe("the fork point: the fork's message appended here, its overrides applied from here"),
    }),
  ).describe('issue 26: set on a call of a replay or fork'),
});
const modelCallExample = {
  callId: MODEL_CALL_ID,
  status: 'succeeded',
  sessionId: SESSION_ID,
  agentName: 'code-reviewer',
  subagentId: null,
  runId: null,
  rootRunId: null,
  lineagePath: ['code-reviewer'],
  provider: 'openai',
  model: 'gpt-4.1',
  interactionType: 'conversation-agent',
  initiator: 'user',
  requestBytes: 18234,
  messageCount: 3,
  toolCount: 12,
  stream: true,
  httpStatus: 200,
  ttfbMs: 412,
  durationMs: 2310,
  inputTokens: 4210,
  outputTokens: 388,
  cachedInputTokens: 3072,
  reasoningTokens: null,
  responseId: 'chatcmpl-9x2',
  finishReason: 'stop',
  cost: 0.005379,
  currency: 'USD',
  error: null,
  startedAt: AT,
  endedAt: LATER,
  replay: null,
};
const modelCallList = z.object({
  calls: z.array(modelCallView).describe('oldest first'),
  nextCursor: nullable(z.string()).describe('pass as after for the next page; null on the last one'),
  spend: z.object({
    calls: z.number().int(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    cost: nullable(z.number()).describe('sum of the known costs; null when no call has a known cost'),
    currency: nullable(z.string()),
    unpricedCalls: z.number().int().describe('calls of unknown cost (no price for their model, or no usage reported): left out of cost'),
  }),
  modelRoute: z.object({ routed: z.boolean(), reason: z.string().optional().describe('why the CLI does not route model calls') }),
});
const modelCallListExample = {
  calls: [modelCallExample],
  nextCursor: null,
  spend: { calls: 1, inputTokens: 4210, outputTokens: 388, cost: 0.005379, currency: 'USD', unpricedCalls: 0 },
  modelRoute: { routed: true },
};

/** What the model calls' routes answer. */
export const MODEL_CALLS_ANSWERS: ControllerAnswers<ModelCallsController> = {
  answers: {
    listOfSession: {
      status: 200,
      description:
        "A page of the session's model calls with the spend of all of them, and whether the CLI routes model calls (when not, none are recorded)",
      schema: modelCallList,
      example: modelCallListExample,
    },
    listOfRun: {
      status: 200,
      description: "A page of the run's (or its subtree's) model calls with the spend of all of them, and whether the CLI routes model calls",
      schema: modelCallList,
      example: modelCallListExample,
      pathParameters: { id: uuidParameter(RUN_ID) },
    },
    get: {
      status: 200,
      description: 'The call, with its request and answer when kept (SWITCHBOARD_MODEL_CONTENT=full; null otherwise)',
      schema: modelCallView.extend({
        request: nullable(z.string()),
        answer: nullable(z.string()),
        requestTruncated: z.boolean(),
        answerTruncated: z.boolean(),
      }),
      example: {
        ...modelCallExample,
        request: '{"model":"gpt-4.1","messages":[{"role":"user","content":"Review the diff"}],"stream":true}',
        answer: 'data: {"id":"chatcmpl-9x2","choices":[{"delta":{"content":"Looks good"}}]}\n\ndata: [DONE]\n\n',
        requestTruncated: false,
        answerTruncated: false,
      },
      pathParameters: { id: uuidParameter(MODEL_CALL_ID) },
    },
  },
  pathParameters: { id: uuidParameter(SESSION_ID) },
};

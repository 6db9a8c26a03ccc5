import { z, type ZodType } from 'zod';
import { agentInputSchema } from '../agents/agent-definition';

/**
 * What each REST operation answers, by operationId (`<Controller>_<method>`), for the OpenAPI document:
 * the success status, a zod schema of the body and a realistic example (api-responses.spec.ts parses
 * each example with its schema). One table for every controller: a route without an entry fails
 * test/e2e/openapi-document.e2e-spec.ts. Bodies use the spelling the service sends today.
 */
export interface DocumentedAnswer {
  status: number;
  description: string;
  /** application/json unless said. */
  contentType?: string;
  schema: ZodType;
  example: unknown;
}

export const SESSION_ID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
export const RUN_ID = '0192f3a4-7777-7abc-8def-0123456789ab';
const CHILD_SESSION_ID = '0192f3a4-9999-7abc-8def-0123456789ab';
const APPROVAL_ID = '0192f3a4-aaaa-7abc-8def-0123456789ab';
const REQUEST_ID = 'b7e4d2a0-1c3f-4e5a-9b8c-7d6e5f4a3b2c';
const MODEL_CALL_ID = '0192f3a4-cccc-7abc-8def-0123456789ab';
const AT = '2026-11-27T14:03:12.345Z';
const LATER = '2026-11-27T14:04:02.120Z';

const iso = z.string().describe('ISO 8601 UTC timestamp');
const nullable = <T extends ZodType>(schema: T) => schema.nullable();
/** issue 27: a named key's id in the examples. */
const KEY_ID = '0192f3a4-dddd-7abc-8def-0123456789ab';
/** issue 27: who did something (src/common/actor.ts). */
const actorView = z.object({
  kind: z.enum(['user', 'key', 'agent', 'system']),
  id: z.string(),
  name: z.string(),
  lineage: z.array(z.string()).optional().describe("an agent's lineage: agent names from the top of the team down to it"),
  via: z.enum(['console', 'api']).optional().describe("where a person's or key's request came from"),
});

const sessionSummary = z.object({ sessionId: z.uuid(), status: z.string(), model: z.string(), protocolVersion: z.number().int().optional() });
const agentSteered = z.object({
  sessionId: z.string(),
  target: z.enum(['main', 'subagent']),
  subagentId: z.string().optional(),
  agentName: z.string(),
  status: z.literal('steered'),
});
const sessionListItem = z.object({
  sessionId: z.string(),
  status: z.string(),
  statusReason: nullable(z.string()),
  model: z.string(),
  agentId: nullable(z.string()),
  subAgents: z.array(z.string()),
  createdAt: iso,
  updatedAt: iso,
});
const launch = z.object({
  toolCallId: z.string(),
  agentName: z.string(),
  childSessionId: z.string(),
  status: z.string(),
  error: nullable(z.string()),
  startedAt: iso,
  endedAt: nullable(iso),
  totalTokens: nullable(z.number()),
  totalToolCalls: nullable(z.number()),
  durationMs: nullable(z.number()),
});
const sessionView = sessionListItem.extend({
  protocolVersion: z.number().int(),
  config: z.record(z.string(), z.unknown()).describe('what it was created with (the POST body, defaults applied)'),
  workingDirectory: z.string(),
  lastPosition: z.number().int(),
  subAgentLaunches: z.array(launch).describe("the CLI's own sub-agent launches (task tool) in this session"),
});
const sessionListExample = {
  sessionId: SESSION_ID,
  status: 'idle',
  statusReason: null,
  model: 'gpt-4.1',
  agentId: 'code-reviewer',
  subAgents: ['test-writer'],
  createdAt: AT,
  updatedAt: LATER,
};
const sessionExample = {
  ...sessionListExample,
  protocolVersion: 3,
  config: {
    model: 'gpt-4.1',
    tools: [],
    customAgents: [],
    permissionPolicy: { allowKinds: ['read'], approveOwnTools: true },
    agentId: 'code-reviewer',
    subAgents: ['test-writer'],
  },
  workingDirectory: '/var/lib/switchboard/work',
  lastPosition: 42,
  subAgentLaunches: [
    {
      toolCallId: 'call_8f2a',
      agentName: 'test-writer',
      childSessionId: CHILD_SESSION_ID,
      status: 'completed',
      error: null,
      startedAt: AT,
      endedAt: LATER,
      totalTokens: 5120,
      totalToolCalls: 4,
      durationMs: 49775,
    },
  ],
};

const usage = z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number(), toolCalls: z.number(), durationMs: z.number() });
/** A single run's view adds what its model calls cost (SWITCHBOARD_MODEL_PRICES; null when unknown, never 0 for unknown). */
const usageWithCost = usage.extend({
  cost: nullable(z.number()).optional(),
  currency: nullable(z.string()).optional(),
  modelCalls: z.number().int().optional(),
  unpricedCalls: z.number().int().optional(),
});
const budgetLimits = z
  .object({ maxTokens: z.number(), maxToolCalls: z.number(), maxRuns: z.number(), maxDurationMs: z.number(), maxCost: z.number() })
  .partial();
const budgetUse = z.object({ tokens: z.number(), toolCalls: z.number(), runs: z.number(), durationMs: z.number(), cost: z.number() });
const budgetView = z.object({ limits: budgetLimits, used: nullable(budgetUse), remaining: nullable(budgetLimits) });
const runView = z.object({
  runId: z.uuid(),
  agentId: z.string(),
  prompt: z.string(),
  status: z.string(),
  background: z.boolean(),
  parentRunId: nullable(z.string()),
  parentThreadId: nullable(z.string()),
  ownerThreadId: z.string(),
  rootRunId: z.string(),
  depth: z.number().int(),
  threadId: z.string(),
  epoch: z.number().int(),
  policy: z.unknown().describe('the delegation policy the run runs under'),
  output: nullable(z.string()),
  error: nullable(z.string()),
  stoppedBy: z
    .unknown()
    .describe('who stopped it: {actor (the client or budget, kept as it was), reason, cascadeFrom?, forced, by (issue 27: the actor)}'),
  usage: usageWithCost,
  subtreeUsage: usageWithCost.optional().describe('GET /api/runs/:id only: the run and every run under it'),
  budget: nullable(budgetView),
  startedAt: iso,
  endedAt: nullable(iso),
  replayOf: nullable(z.string()).describe('issue 26: the run this one replays or forks'),
  forkedFrom: nullable(z.object({ runId: z.string(), modelCallId: z.string() })).describe(
    "issue 26: a fork's original run and the call it went live from",
  ),
  replay: nullable(
    z.object({
      mode: z.string(),
      onDivergence: z.enum(['stop', 'live']).optional(),
      allowSideEffects: z.boolean().optional(),
      message: z.string().optional(),
      agentOverrides: z.record(z.string(), z.object({ prompt: z.string().optional(), model: z.string().optional() })).optional(),
      requestedBy: z.string().optional(),
      divergence: z.unknown().optional().describe("GET /api/runs/:id only: the replay tree's first divergence with both versions, null: none"),
    }),
  ).describe('issue 26: a run of a replay or fork tree'),
  replays: z
    .array(z.object({ runId: z.string(), mode: z.string(), status: z.string(), startedAt: iso }))
    .optional()
    .describe('GET /api/runs/:id only: the runs replaying or forking this one'),
  pause: nullable(
    z.object({
      since: iso,
      by: z.string().describe('console or api'),
      actor: actorView.describe('issue 27: who paused it'),
      target: z.enum(['run', 'session']).describe('what was paused: this run or an ancestor (runId), or the session that started the tree (sessionId)'),
      runId: nullable(z.string()),
      sessionId: nullable(z.string()),
      reason: nullable(z.string()),
      held: z.number().int().describe('steps waiting under that pause now: model calls, tool calls, permissions, hooks, user input'),
    }),
  ).describe('issue 26: the pause over the run; a running run under one has status paused'),
  scheduledBy: nullable(z.object({ scheduleId: z.string(), firingId: z.string() })).describe(
    'issue 30: the schedule firing that started the run; null for runs nobody scheduled',
  ),
  startedBy: nullable(actorView).describe('issue 39: who started the run; null for runs started before it was recorded'),
});
const usageExample = { inputTokens: 4200, outputTokens: 920, totalTokens: 5120, toolCalls: 4, durationMs: 49775 };
const runExample = {
  runId: RUN_ID,
  agentId: 'test-writer',
  prompt: 'Write unit tests for src/parser.ts',
  status: 'completed',
  background: false,
  parentRunId: null,
  parentThreadId: SESSION_ID,
  ownerThreadId: SESSION_ID,
  rootRunId: RUN_ID,
  depth: 1,
  threadId: `sub-agent-${RUN_ID}`,
  epoch: 1,
  policy: { maxDepth: 3, allowedAgents: ['test-writer'] },
  output: 'Added 6 tests in test/parser.spec.ts; all pass.',
  error: null,
  stoppedBy: null,
  usage: usageExample,
  budget: null,
  startedAt: AT,
  endedAt: LATER,
  replayOf: null,
  forkedFrom: null,
  replay: null,
  pause: null,
  scheduledBy: null,
  startedBy: { kind: 'agent', id: SESSION_ID, name: 'lead', lineage: ['lead'] },
};
const runSummary = z.object({
  runId: z.uuid(),
  agentId: z.string(),
  status: z.string(),
  background: z.boolean(),
  output: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
const runSummaryExample = {
  runId: RUN_ID,
  agentId: 'test-writer',
  status: 'completed',
  background: false,
  output: 'Added 6 tests in test/parser.spec.ts; all pass.',
};
const cliSubagentNode = z.object({
  kind: z.literal('cli_subagent'),
  agentName: z.string(),
  status: z.string(),
  toolCallId: z.string(),
  childSessionId: z.string(),
  error: nullable(z.string()),
  usage: z.object({ totalTokens: nullable(z.number()), toolCalls: nullable(z.number()), durationMs: nullable(z.number()) }),
  startedAt: iso,
  endedAt: nullable(iso),
});
const runTree = runView.extend({
  kind: z.literal('run'),
  replays: z
    .array(z.object({ runId: z.string(), mode: z.string(), status: z.string(), startedAt: iso }))
    .optional()
    .describe('issue 26, on the root: the runs that replay or fork it'),
  subtreeUsage: usage,
  children: z
    .array(z.union([z.object({ kind: z.literal('run') }).loose(), cliSubagentNode]))
    .describe('runs (the same shape, recursively) and CLI-native sub-agents'),
});

const agentView = agentInputSchema.extend({
  id: z.string(),
  created_at: iso,
  updated_at: iso,
  version: z.number().int(),
  composable: z.boolean(),
  composable_reasons: z.array(z.string()),
  sub_agent_problems: z.array(z.object({ id: z.string(), reason: z.string() }).loose()),
  included_in: z.array(z.string()),
});
const agentExample = {
  id: 'code-reviewer',
  name: 'Code reviewer',
  description: 'Reviews a diff for bugs, security problems and missing tests',
  system_message: { mode: 'replace', content: 'You review code. Name the file and line of each problem.' },
  tools: { custom: [], builtin: ['view', 'grep'], excluded_builtin: [] },
  sub_agents: ['test-writer'],
  created_at: AT,
  updated_at: LATER,
  version: 2,
  composable: true,
  composable_reasons: [],
  sub_agent_problems: [],
  included_in: [],
};

const approvalView = z.object({
  id: z.uuid(),
  status: z.string(),
  kind: z.string(),
  toolName: nullable(z.string()),
  arguments: z.unknown(),
  sessionId: z.string(),
  childSessionId: nullable(z.string()),
  agentName: nullable(z.string()),
  runId: nullable(z.string()),
  rootRunId: nullable(z.string()),
  lineagePath: z.array(z.string()),
  requestedAt: iso,
  decidedAt: nullable(iso),
  decision: nullable(z.string()),
  scope: nullable(z.string()),
  decidedBy: nullable(z.string()).describe('where it was decided from: console, api, or timeout, expired'),
  decider: nullable(actorView).describe('issue 27: who decided; null while pending'),
  reason: nullable(z.string()),
});
const approvalExample = {
  id: APPROVAL_ID,
  status: 'approved',
  kind: 'shell',
  toolName: 'bash',
  arguments: { command: 'npm test' },
  sessionId: SESSION_ID,
  childSessionId: null,
  agentName: 'test-writer',
  runId: RUN_ID,
  rootRunId: RUN_ID,
  lineagePath: [RUN_ID],
  requestedAt: AT,
  decidedAt: LATER,
  decision: 'approved',
  scope: 'once',
  decidedBy: 'api',
  decider: { kind: 'key', id: KEY_ID, name: 'nightly-ci', via: 'api' },
  reason: 'tests only',
};

const storedEvent = z.object({
  globalPosition: z.number().int(),
  eventId: z.uuid(),
  streamId: z.string(),
  streamPosition: z.number().int(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
  recordedAt: iso,
});
const eventExample = {
  globalPosition: 1201,
  eventId: '0192f3a4-bbbb-7abc-8def-0123456789ab',
  streamId: `session-${SESSION_ID}`,
  streamPosition: 3,
  type: 'session.message_sent',
  data: { sessionId: SESSION_ID, prompt: 'Review the diff in src/parser.ts' },
  metadata: { actor: 'console', correlationId: SESSION_ID, by: { kind: 'user', id: 'https://idp.example.com#ada', name: 'Ada Lovelace', via: 'console' } },
  recordedAt: AT,
};
const eventPage = z.object({ events: z.array(storedEvent), nextAfter: z.number().int() });
const auditEntry = z.object({
  position: z.number().int(),
  streamId: z.string(),
  eventType: z.string(),
  actor: nullable(z.string()).describe('the client string recorded: console, api, switchboard, copilot-cli...'),
  actorKind: z.enum(['user', 'key', 'agent', 'system']).describe('issue 27: who did it (an event recorded before: the api key)'),
  actorId: z.string(),
  actorName: z.string(),
  correlationId: nullable(z.string()),
  causationId: nullable(z.string()),
  recordedAt: iso,
  sessionId: nullable(z.string()),
  runId: nullable(z.string()),
  agentId: nullable(z.string()),
  toolName: nullable(z.string()),
  decision: nullable(z.string()),
});
const auditExample = {
  position: 1240,
  streamId: `session-${SESSION_ID}`,
  eventType: 'permission.decided',
  actor: 'api',
  actorKind: 'key',
  actorId: KEY_ID,
  actorName: 'nightly-ci',
  correlationId: SESSION_ID,
  causationId: null,
  recordedAt: AT,
  sessionId: SESSION_ID,
  runId: null,
  agentId: 'code-reviewer',
  toolName: 'view',
  decision: 'approved',
};
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
const healthSummary = z.object({ status: z.string(), checks: z.record(z.string(), z.enum(['ok', 'failing'])).optional() }).loose();

const text = (description: string, contentType: string, example: string): Omit<DocumentedAnswer, 'status'> => ({
  description,
  contentType,
  schema: z.string(),
  example,
});

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

const pauseView = z.object({
  since: iso,
  by: z.string(),
  actor: actorView,
  target: z.enum(['run', 'session']),
  runId: z.string().optional(),
  sessionId: z.string().optional(),
  reason: z.string().optional(),
  held: z.number().int(),
});
function pauseAnswer(target: 'run' | 'session', id: string) {
  return {
    schema: z.object({ target: z.enum(['run', 'session']), id: z.string(), pause: pauseView }),
    example: {
      target,
      id,
      pause: {
        since: AT,
        by: 'console',
        actor: { kind: 'user', id: 'https://idp.example.com#ada', name: 'Ada Lovelace', via: 'console' },
        target,
        ...(target === 'run' ? { runId: id } : { sessionId: id }),
        reason: 'check it first',
        held: 0,
      },
    },
  };
}
function unpauseAnswer(target: 'run' | 'session', id: string) {
  return {
    schema: z.object({ target: z.enum(['run', 'session']), id: z.string(), pausedMs: z.number(), released: z.number().int() }),
    example: { target, id, pausedMs: 42_000, released: 3 },
  };
}

/** issue 30: schedules and their firings (src/schedules/schedule-view.ts). */
const SCHEDULE_ID = '0192f3a4-eeee-7abc-8def-0123456789ab';
const FIRING_ID = '6f1c2d3e-4b5a-5c6d-8e7f-0a1b2c3d4e5f';
const firingView = z.object({
  id: z.string(),
  scheduleId: z.string(),
  dueAt: iso,
  firedAt: nullable(iso),
  trigger: z.enum(['cron', 'at', 'catch_up', 'manual']),
  status: z.enum(['starting', 'started', 'skipped', 'retrying', 'failed']),
  runId: nullable(z.string()),
  runStatus: nullable(z.enum(['running', 'completed', 'failed', 'stopped', 'interrupted'])),
  outcome: z.string().describe("the run's status once started, else the firing's status"),
  attempt: z.number().int(),
  retryAt: nullable(iso),
  missedCount: z.number().int(),
  reason: nullable(z.object({ code: z.string(), message: z.string() })).describe('why it was skipped (overlap, missed) or failed (unknown_agent, ...)'),
});
const firingExample = {
  id: FIRING_ID,
  scheduleId: SCHEDULE_ID,
  dueAt: '2026-11-27T14:00:00.000Z',
  firedAt: AT,
  trigger: 'cron',
  status: 'started',
  runId: RUN_ID,
  runStatus: 'completed',
  outcome: 'completed',
  attempt: 1,
  retryAt: null,
  missedCount: 0,
  reason: null,
};
const scheduleView = z.object({
  id: z.string(),
  name: z.string(),
  agentId: z.string(),
  prompt: z.string(),
  model: nullable(z.string()),
  permissionPolicy: nullable(z.object({}).loose()),
  budget: nullable(
    z.object({
      maxTokens: nullable(z.number()),
      maxToolCalls: nullable(z.number()),
      maxRuns: nullable(z.number()),
      maxDurationMs: nullable(z.number()),
      maxCost: nullable(z.number()),
    }),
  ),
  cron: nullable(z.string()),
  at: nullable(iso),
  timeZone: z.string(),
  endsAt: nullable(iso),
  enabled: z.boolean(),
  overlap: z.enum(['skip', 'allow']),
  catchUp: z.enum(['skip', 'last']),
  version: z.number().int().describe('send as If-Match to PATCH or DELETE'),
  createdAt: iso,
  updatedAt: iso,
  nextFiringAt: nullable(iso),
  nextFirings: z.array(iso).describe('the next five due times (GET of one schedule; [] in lists)'),
  lastFiring: nullable(firingView),
});
const scheduleExample = {
  id: SCHEDULE_ID,
  name: 'Nightly review',
  agentId: 'code-reviewer',
  prompt: "Review yesterday's changes on main and list the problems you find.",
  model: null,
  permissionPolicy: null,
  budget: { maxTokens: 200000, maxToolCalls: null, maxRuns: 10, maxDurationMs: null, maxCost: null },
  cron: '0 2 * * *',
  at: null,
  timeZone: 'Europe/Berlin',
  endsAt: null,
  enabled: true,
  overlap: 'skip',
  catchUp: 'skip',
  version: 1,
  createdAt: AT,
  updatedAt: AT,
  nextFiringAt: '2026-11-28T01:00:00.000Z',
  nextFirings: [
    '2026-11-28T01:00:00.000Z',
    '2026-11-29T01:00:00.000Z',
    '2026-11-30T01:00:00.000Z',
    '2026-12-01T01:00:00.000Z',
    '2026-12-02T01:00:00.000Z',
  ],
  lastFiring: firingExample,
};

const principalView = z.object({
  kind: z.enum(['user', 'key', 'operator', 'local']),
  id: z.string(),
  name: z.string(),
  role: z.enum(['viewer', 'operator', 'approver', 'admin']),
  via: z.enum(['cookie', 'bearer', 'none']),
  may: z.array(z.enum(['read', 'operate', 'approve', 'administer'])).describe('what the role may do'),
});

const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['viewer', 'operator', 'approver', 'admin']),
  prefix: z.string(),
  expiresAt: nullable(iso),
  createdBy: z.string(),
  createdAt: iso,
  revokedAt: nullable(iso),
  revokedBy: nullable(z.string()),
  lastUsedAt: nullable(iso),
});
const apiKeyExample = {
  id: '0192f3a4-bbbb-7abc-8def-0123456789ab',
  name: 'nightly-ci',
  role: 'operator',
  prefix: 'sbk_Q2hhbmdl',
  expiresAt: null,
  createdBy: 'operator',
  createdAt: AT,
  revokedAt: null,
  revokedBy: null,
  lastUsedAt: LATER,
};

const SIGN_IN_SESSION_ID = '5d2c7e1a-90b4-4f3e-a1c8-7b6d5e4f3a2b';
const signInSessionView = z.object({
  id: z.string().describe('The first 128 bits of the SHA-256 the table keeps of the cookie, written as a UUID (never the cookie)'),
  subject: z.string(),
  name: z.string(),
  role: z.enum(['viewer', 'operator', 'approver', 'admin']),
  createdAt: iso,
  expiresAt: iso,
  revokedAt: nullable(iso),
  state: z.enum(['active', 'expired', 'revoked']),
});
const signInSessionExample = {
  id: SIGN_IN_SESSION_ID,
  subject: 'https://id.example.com#ada',
  name: 'Ada Lovelace',
  role: 'approver',
  createdAt: AT,
  expiresAt: '2026-11-28T02:03:12.345Z',
  revokedAt: null,
  state: 'active',
};

export const DOCUMENTED_ANSWERS: Record<string, DocumentedAnswer> = {
  // identity
  ApiKeysController_create: {
    status: 201,
    description: 'The key (shown this once) and its record',
    schema: z.object({ key: z.string().startsWith('sbk_'), apiKey: apiKeyView }),
    example: { key: 'sbk_Q2hhbmdlIHRoaXMgZXhhbXBsZSBrZXkgYmVmb3JlIHVzZQ', apiKey: { ...apiKeyExample, lastUsedAt: null } },
  },
  ApiKeysController_list: {
    status: 200,
    description: 'Every named key, newest first',
    schema: z.object({ keys: z.array(apiKeyView) }),
    example: { keys: [apiKeyExample] },
  },
  ApiKeysController_revoke: {
    status: 200,
    description: 'The key as revoked',
    schema: apiKeyView,
    example: { ...apiKeyExample, revokedAt: LATER, revokedBy: 'operator' },
  },
  SignInSessionsController_list: {
    status: 200,
    description: "People's sign-in sessions, newest first",
    schema: z.object({ sessions: z.array(signInSessionView) }),
    example: { sessions: [signInSessionExample] },
  },
  SignInSessionsController_revoke: {
    status: 200,
    description: 'The session as revoked: its cookie is 401 from the next request on',
    schema: signInSessionView,
    example: { ...signInSessionExample, revokedAt: LATER, state: 'revoked' },
  },
  MeController_me: {
    status: 200,
    description: 'Who calls and with which role',
    schema: principalView,
    example: { kind: 'key', id: '0192f3a4-bbbb-7abc-8def-0123456789ab', name: 'nightly-ci', role: 'operator', via: 'bearer', may: ['read', 'operate'] },
  },
  // sessions
  SessionsController_create: {
    status: 201,
    description: 'The session, started in the Copilot CLI',
    schema: sessionSummary,
    example: { sessionId: SESSION_ID, status: 'active', model: 'gpt-4.1', protocolVersion: 3 },
  },
  SessionsController_list: {
    status: 200,
    description: 'Sessions, newest first',
    schema: z.object({ sessions: z.array(sessionListItem) }),
    example: { sessions: [sessionListExample] },
  },
  SessionsController_get: { status: 200, description: 'The session', schema: sessionView, example: sessionExample },
  SessionsController_send: {
    status: 202,
    description: 'Accepted: the answer arrives on the event stream',
    schema: z.object({ sessionId: z.string(), messageId: z.string().optional() }),
    example: { sessionId: SESSION_ID, messageId: 'msg_01J9Z' },
  },
  SessionsController_change: {
    status: 200,
    description: 'The sub-agents now chosen',
    schema: z.object({ sessionId: z.string(), subAgents: z.array(z.string()) }),
    example: { sessionId: SESSION_ID, subAgents: ['test-writer'] },
  },
  SessionsController_resume: {
    status: 200,
    description: 'Resumed',
    schema: sessionSummary,
    example: { sessionId: SESSION_ID, status: 'idle', model: 'gpt-4.1', protocolVersion: 3 },
  },
  SessionsController_abort: {
    status: 202,
    description: 'Stopping: the CLI was asked to end the running turn; the session turns idle when it has (409 when no turn runs)',
    schema: z.object({ sessionId: z.string(), status: z.literal('stopping') }),
    example: { sessionId: SESSION_ID, status: 'stopping' },
  },
  SessionsController_steer: {
    status: 202,
    description:
      "Steered: the CLI has the message and the agent's next model request carries it; recorded as session.steered (409 when the turn or the sub-agent is not running, 404 unknown sub-agent, 422 on a protocol-2 CLI)",
    schema: agentSteered,
    example: { sessionId: SESSION_ID, target: 'subagent', subagentId: CHILD_SESSION_ID, agentName: 'test-writer', status: 'steered' },
  },
  SessionOptionsController_get: {
    status: 200,
    description: 'What a session may ask for here: each permission kind (and what opens a refused one), budget maxima, the delegation tools',
    schema: z.object({
      permissionKinds: z.array(
        z.object({
          kind: z.string(),
          description: z.string(),
          allowed: z.boolean(),
          refusedReason: nullable(z.string()),
          enabledBy: nullable(z.string()),
          note: nullable(z.string()),
        }),
      ),
      budgetLimits: z.array(z.object({ name: z.string(), max: z.number().int() })),
      delegationTools: z.array(z.string()),
      approvalTimeoutMs: z.number().int(),
      workingDirectory: z.string(),
    }),
    example: {
      permissionKinds: [
        { kind: 'read', description: 'read files', allowed: true, refusedReason: null, enabledBy: null, note: 'stays inside the working directory' },
        {
          kind: 'shell',
          description: 'run shell commands on this host',
          allowed: false,
          refusedReason: 'shell acts on this host; the operator has not allowed that',
          enabledBy: 'SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true',
          note: null,
        },
      ],
      budgetLimits: [{ name: 'max_runs', max: 1000000000 }],
      delegationTools: ['agent_run', 'agent_stop', 'agent_output'],
      approvalTimeoutMs: 300000,
      workingDirectory: '/srv/switchboard/workspace',
    },
  },
  SessionsController_destroy: {
    status: 200,
    description: 'Destroyed',
    schema: z.object({ sessionId: z.string(), status: z.literal('destroyed') }),
    example: { sessionId: SESSION_ID, status: 'destroyed' },
  },
  SessionsController_events: {
    status: 200,
    ...text(
      "Server-Sent Events: one per stream event (id: its stream position; data: {position, globalPosition, type, data, recordedAt}); when the caller's key or sign-in session ends, a last `closed` event (data: {code, message}) and the end of the stream",
      'text/event-stream',
      `id: 3\nevent: session.message_sent\ndata: {"position":3,"globalPosition":1201,"type":"session.message_sent","data":{"prompt":"Review the diff"},"recordedAt":"${AT}"}\n\n`,
    ),
  },
  SessionBudgetController_budget: {
    status: 200,
    description: "The session's budget",
    schema: budgetView.extend({ sessionId: z.string() }),
    example: {
      sessionId: SESSION_ID,
      limits: { maxTokens: 200000, maxRuns: 10 },
      used: { tokens: 5120, toolCalls: 4, runs: 1, durationMs: 49775, cost: 0.0158 },
      remaining: { maxTokens: 194880, maxRuns: 9 },
    },
  },
  SessionRequestsController_requests: {
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
  SessionRequestsController_pending: {
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
  SessionRequestsController_answer: {
    status: 200,
    description: 'Answered',
    schema: z.object({ requestId: z.string(), answered: z.literal(true) }),
    example: { requestId: REQUEST_ID, answered: true },
  },
  // agents
  AgentsController_create: {
    status: 201,
    description: 'The agent as stored',
    schema: agentView,
    example: { ...agentExample, version: 1, created_at: AT, updated_at: AT },
  },
  AgentsController_list: {
    status: 200,
    description: 'The library',
    schema: z.object({ agents: z.array(agentView) }),
    example: { agents: [agentExample] },
  },
  AgentsController_eligible: {
    status: 200,
    description: 'Agents that can be its sub-agents',
    schema: z.object({ agents: z.array(agentView) }),
    example: { agents: [agentExample] },
  },
  AgentsController_export: {
    status: 200,
    description: 'One file per agent',
    schema: z.object({ files: z.array(z.object({ name: z.string(), content: z.string() })) }),
    example: { files: [{ name: 'code-reviewer.json', content: '{\n  "id": "code-reviewer",\n  "name": "Code reviewer"\n}\n' }] },
  },
  AgentsController_import: {
    status: 200,
    description: 'What the import did, by agent id',
    schema: z.object({ created: z.array(z.string()), updated: z.array(z.string()), unchanged: z.array(z.string()) }),
    example: { created: ['test-writer'], updated: ['code-reviewer'], unchanged: [] },
  },
  AgentsController_get: { status: 200, description: 'The agent', schema: agentView, example: agentExample },
  AgentsController_update: { status: 200, description: 'The agent as stored (version + 1)', schema: agentView, example: { ...agentExample, version: 3 } },
  AgentsController_delete: {
    status: 200,
    description: 'Deleted',
    schema: z.object({ id: z.string(), deleted: z.literal(true) }),
    example: { id: 'code-reviewer', deleted: true },
  },
  // schedules (issue 30)
  SchedulesController_create: { status: 201, description: 'The schedule (version 1)', schema: scheduleView, example: scheduleExample },
  SchedulesController_preview: {
    status: 200,
    description: 'The next five due times, or the problems of the timing (never refused for them)',
    schema: z.object({ nextFirings: z.array(iso), problems: z.array(z.string()) }),
    example: { nextFirings: scheduleExample.nextFirings, problems: [] },
  },
  SchedulesController_list: {
    status: 200,
    description: 'Schedules in created order',
    schema: z.object({ schedules: z.array(scheduleView), nextCursor: nullable(z.string()) }),
    example: { schedules: [{ ...scheduleExample, nextFirings: [] }], nextCursor: null },
  },
  SchedulesController_get: { status: 200, description: 'The schedule', schema: scheduleView, example: scheduleExample },
  SchedulesController_update: { status: 200, description: 'The schedule as stored', schema: scheduleView, example: { ...scheduleExample, version: 2 } },
  SchedulesController_delete: { status: 204, description: 'Deleted (no body)', contentType: 'text/plain', schema: z.literal(''), example: '' },
  SchedulesController_run: {
    status: 202,
    description: 'The manual firing: its run is starting (follow runId), or why it did not start',
    schema: firingView,
    example: { ...firingExample, id: '0192f3a4-ffff-7abc-8def-0123456789ab', trigger: 'manual', status: 'starting', runStatus: null, outcome: 'starting' },
  },
  SchedulesController_firings: {
    status: 200,
    description: 'Firings, newest first',
    schema: z.object({ firings: z.array(firingView), nextCursor: nullable(z.string()) }),
    example: { firings: [firingExample], nextCursor: null },
  },
  // runs
  RunsController_start: { status: 201, description: 'The run (a foreground run: once it ended)', schema: runSummary, example: runSummaryExample },
  RunsController_list: {
    status: 200,
    description: 'A page of runs',
    schema: z.object({ runs: z.array(runView), nextCursor: nullable(z.string()) }),
    example: { runs: [runExample], nextCursor: null },
  },
  RunsController_get: { status: 200, description: 'The run', schema: runView, example: runExample },
  RunsController_output: { status: 200, description: 'Its status, and its output once completed', schema: runSummary, example: runSummaryExample },
  RunsController_tree: {
    status: 200,
    description: 'The run and everything below it',
    schema: runTree,
    example: { ...runExample, kind: 'run', subtreeUsage: usageExample, children: [] },
  },
  RunsController_stop: {
    status: 200,
    description: 'Stopped, with every run the cascade stopped',
    schema: runSummary.extend({ stoppedRuns: z.array(z.string()) }),
    example: {
      runId: RUN_ID,
      agentId: 'test-writer',
      status: 'stopped',
      background: true,
      error: { code: 'run_stopped', message: 'stopped by api: not needed' },
      stoppedRuns: [RUN_ID],
    },
  },
  RunsController_steer: {
    status: 202,
    description: "Steered: the run's agent gets the message in its next model request (409 when the run or its turn is not running)",
    schema: agentSteered.extend({ runId: z.string() }),
    example: { sessionId: `sub-agent-${RUN_ID}`, target: 'main', agentName: 'test-writer', status: 'steered', runId: RUN_ID },
  },
  RunsController_resume: {
    status: 200,
    description: 'The resumed run',
    schema: runSummary,
    example: { ...runSummaryExample, status: 'running', background: true, output: undefined },
  },
  RunsController_replay: {
    status: 201,
    description: 'The replay: a new root run (a foreground one: once it ended)',
    schema: runSummary.extend({ replayOf: z.string() }),
    example: { ...runSummaryExample, runId: '0192f3a4-8888-7abc-8def-0123456789ab', replayOf: RUN_ID },
  },
  RunsController_fork: {
    status: 201,
    description: 'The fork: a new root run, live from the given call (a foreground one: once it ended)',
    schema: runSummary.extend({ forkedFrom: z.object({ runId: z.string(), modelCallId: z.string() }) }),
    example: { ...runSummaryExample, runId: '0192f3a4-8888-7abc-8def-0123456789ab', forkedFrom: { runId: RUN_ID, modelCallId: MODEL_CALL_ID } },
  },
  // approvals
  ApprovalsController_list: {
    status: 200,
    description: 'A page of approvals',
    schema: z.object({ approvals: z.array(approvalView), nextCursor: nullable(z.string()) }),
    example: { approvals: [approvalExample], nextCursor: null },
  },
  ApprovalsController_decide: { status: 200, description: 'The decided approval', schema: approvalView, example: approvalExample },
  // pauses (issue 26)
  PausesController_sessionPause: {
    status: 200,
    description: 'The pause over the session, null when none',
    schema: z.object({ pause: nullable(pauseView) }),
    example: {
      pause: {
        since: AT,
        by: 'api',
        actor: { kind: 'key', id: KEY_ID, name: 'nightly-ci', via: 'api' },
        target: 'session',
        sessionId: SESSION_ID,
        held: 2,
      },
    },
  },
  PausesController_pauseRun: { status: 200, description: 'Paused: the run and its subtree wait at their next step', ...pauseAnswer('run', RUN_ID) },
  PausesController_unpauseRun: { status: 200, description: 'Unpaused: what waited goes on in the order it came', ...unpauseAnswer('run', RUN_ID) },
  PausesController_pauseSession: {
    status: 200,
    description: 'Paused: the session, its CLI sub-agents and every run it started wait at their next step',
    ...pauseAnswer('session', SESSION_ID),
  },
  PausesController_unpauseSession: {
    status: 200,
    description: 'Unpaused: what waited goes on in the order it came',
    ...unpauseAnswer('session', SESSION_ID),
  },
  // model calls
  ModelCallsController_listOfSession: {
    status: 200,
    description: "A page of the session's model calls with the spend of all of them, and whether the CLI routes model calls (when not, none are recorded)",
    schema: modelCallList,
    example: modelCallListExample,
  },
  ModelCallsController_listOfRun: {
    status: 200,
    description: "A page of the run's (or its subtree's) model calls with the spend of all of them, and whether the CLI routes model calls",
    schema: modelCallList,
    example: modelCallListExample,
  },
  ModelCallsController_get: {
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
  },
  // event log
  EventLogController_listEvents: { status: 200, description: 'A page of events', schema: eventPage, example: { events: [eventExample], nextAfter: 1201 } },
  EventLogController_listAudit: {
    status: 200,
    description: 'A page of the audit log',
    schema: z.object({ entries: z.array(auditEntry), nextAfter: z.number().int(), hasMore: z.boolean() }),
    example: { entries: [auditExample], nextAfter: 1240, hasMore: false },
  },
  EventLogController_exportAudit: {
    status: 200,
    ...text(
      'The filtered audit log: JSONL (one /api/audit entry per line) or CSV (a header row, then one row per entry)',
      'application/x-ndjson',
      `${JSON.stringify(auditExample)}\n`,
    ),
  },
  EventLogController_getStream: {
    status: 200,
    description: 'The stream',
    schema: z.object({
      streamId: z.string(),
      category: z.string(),
      version: z.number().int(),
      eventCount: z.number().int(),
      lastEventType: z.string(),
      lastGlobalPosition: z.number().int(),
      firstRecordedAt: iso,
      lastRecordedAt: iso,
    }),
    example: {
      streamId: `session-${SESSION_ID}`,
      category: 'session',
      version: 42,
      eventCount: 42,
      lastEventType: 'cli.session.idle',
      lastGlobalPosition: 1290,
      firstRecordedAt: AT,
      lastRecordedAt: LATER,
    },
  },
  EventLogController_listStreamEvents: {
    status: 200,
    description: "A page of the stream's events",
    schema: eventPage,
    example: { events: [eventExample], nextAfter: 3 },
  },
  // operations
  HealthController_health: {
    status: 200,
    description: 'With the token (or none configured): database, projections, CLI and instances in detail; without it: ok or failing per check',
    schema: healthSummary,
    example: { status: 'ok', checks: { database: 'ok', migrations: 'ok', projections: 'ok', copilotCli: 'ok', modelProvider: 'ok' } },
  },
  HealthController_live: {
    status: 200,
    description: 'Serving HTTP',
    schema: z.object({ status: z.literal('live'), pid: z.number().optional(), uptimeSeconds: z.number().optional() }),
    example: { status: 'live', pid: 4242, uptimeSeconds: 3600 },
  },
  HealthController_ready: {
    status: 200,
    description: 'Ready (503 with the failing checks otherwise)',
    schema: z.object({ status: z.string(), failing: z.array(z.object({ check: z.string() }).loose()), checks: z.record(z.string(), z.unknown()) }),
    example: { status: 'ready', failing: [], checks: { database: 'ok', migrations: 'ok', projections: 'ok', copilotCli: 'ok', modelProvider: 'ok' } },
  },
  MetricsController_scrape: {
    status: 200,
    ...text(
      'Prometheus text format',
      'text/plain',
      '# HELP switchboard_live_sessions Live sessions on this instance\n# TYPE switchboard_live_sessions gauge\nswitchboard_live_sessions 2\n',
    ),
  },
};

/** Path parameters: an example of what a real id looks like, by route prefix and name. */
export function pathParameterExample(path: string, name: string): { example: string; format?: string } {
  if (path.startsWith('/api/agents')) return { example: 'code-reviewer' };
  if (name === 'streamId') return { example: `session-${SESSION_ID}` };
  if (name === 'requestId') return { example: REQUEST_ID };
  if (path.startsWith('/api/runs')) return { example: RUN_ID, format: 'uuid' };
  if (path.startsWith('/api/approvals')) return { example: APPROVAL_ID, format: 'uuid' };
  if (path.startsWith('/api/model-calls')) return { example: MODEL_CALL_ID, format: 'uuid' };
  if (path.startsWith('/api/schedules')) return { example: SCHEDULE_ID, format: 'uuid' };
  if (path.startsWith('/api/sign-in-sessions')) return { example: SIGN_IN_SESSION_ID };
  return { example: SESSION_ID, format: 'uuid' };
}

/** Request bodies as a client would send them (each is parsed by its route's own schema in api-responses.spec.ts). */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  ApiKeysController_create: { name: 'nightly-ci', role: 'operator', expiresAt: '2027-06-30T00:00:00Z' },
  SessionsController_create: {
    agentId: 'code-reviewer',
    subAgents: ['test-writer'],
    delegation: true,
    permissionPolicy: { allowKinds: ['read'], askKinds: ['write'] },
    budget: { maxTokens: 200000, maxRuns: 10 },
  },
  SessionsController_send: { prompt: 'Review the diff in src/parser.ts and name the file and line of each problem.' },
  SessionsController_steer: { message: 'Only src/parser.ts; leave the lexer alone.', subagentId: CHILD_SESSION_ID },
  SessionsController_change: { subAgents: ['test-writer'] },
  SessionRequestsController_answer: { answer: 'main', wasFreeform: false },
  AgentsController_create: {
    id: 'code-reviewer',
    name: 'Code reviewer',
    description: 'Reviews a diff for bugs, security problems and missing tests',
    system_message: { mode: 'replace', content: 'You review code. Name the file and line of each problem.' },
    tools: { custom: [], builtin: ['view', 'grep'], excluded_builtin: [] },
    sub_agents: ['test-writer'],
  },
  AgentsController_update: {
    name: 'Code reviewer',
    description: 'Reviews a diff for bugs, security problems and missing tests',
    system_message: { mode: 'replace', content: 'You review code. Name the file and line of each problem, and suggest a fix.' },
    tools: { custom: [], builtin: ['view', 'grep'], excluded_builtin: [] },
    sub_agents: ['test-writer'],
  },
  AgentsController_import: {
    files: [{ name: 'test-writer.json', content: '{"id":"test-writer","name":"Test writer","system_message":{"content":"You write unit tests."}}' }],
  },
  RunsController_start: { agentId: 'test-writer', prompt: 'Write unit tests for src/parser.ts', background: false },
  RunsController_stop: { reason: 'not needed any more' },
  RunsController_resume: { prompt: 'Go on where you stopped.' },
  RunsController_steer: { message: 'Skip the integration tests; unit tests are enough.' },
  RunsController_replay: { onDivergence: 'stop', allowSideEffects: false, background: true },
  RunsController_fork: { fromModelCall: MODEL_CALL_ID, message: 'Use the second source instead.', agentOverrides: { researcher: { model: 'gpt-4.1' } } },
  ApprovalsController_decide: { decision: 'approve', scope: 'once', reason: 'tests only' },
  PausesController_pauseRun: { reason: 'check its plan first' },
  SchedulesController_create: {
    name: 'Nightly review',
    agentId: 'code-reviewer',
    prompt: "Review yesterday's changes on main and list the problems you find.",
    cron: '0 2 * * *',
    timeZone: 'Europe/Berlin',
    budget: { maxTokens: 200000, maxRuns: 10 },
  },
  SchedulesController_preview: { cron: '0 2 * * 1-5', timeZone: 'Europe/Berlin' },
  SchedulesController_update: { enabled: false },
  PausesController_pauseSession: { reason: 'check its plan first' },
};

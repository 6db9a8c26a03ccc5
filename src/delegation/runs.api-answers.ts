import { z } from 'zod';
import { type ControllerAnswers, SESSION_ID, RUN_ID, MODEL_CALL_ID, AT, LATER, iso, nullable, uuidParameter, actorView } from '../common';
import { agentSteered } from '../sessions';
import type { RunsController } from './runs.controller';

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
export const budgetView = z.object({ limits: budgetLimits, used: nullable(budgetUse), remaining: nullable(budgetLimits) });
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
  a2aContextId: nullable(z.string()).describe('issue 43: the A2A context of a run an A2A client started (the run is one of its tasks); null otherwise'),
  remote: nullable(
    z.object({
      a2a: z.string().describe("the remote agent's A2A card URL"),
      service: nullable(z.string()).describe('the remote agent, as its card names it; null until the message was sent'),
      taskId: nullable(z.string()).describe('the task its service made of the run, which this run follows'),
      contextId: nullable(z.string()).describe("the task's A2A context (a resume continues in it)"),
      usage: nullable(z.object({ totalTokens: nullable(z.number()), cost: nullable(z.number()), currency: nullable(z.string()) })).describe(
        "what the service reported the task used (its task's metadata), once it ended; null when it reported nothing",
      ),
    }),
  ).describe("issue 43: a remote agent's run (it runs on another service, over A2A); null for a run that runs here"),
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
  a2aContextId: null,
  remote: null,
};
const runSummary = z.object({
  runId: z.uuid(),
  agentId: z.string(),
  status: z.string(),
  background: z.boolean(),
  output: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** issue 42: how the run's changes reached its owner's worktree. */
  workspace: z
    .object({
      merge: z.enum(['merged', 'up-to-date', 'conflicted', 'failed']),
      files: z.array(z.string()),
      conflicts: z.array(z.string()),
      branch: z.string(),
      error: z.string().optional(),
    })
    .optional(),
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

/** What the runs' routes answer. */
export const RUNS_ANSWERS: ControllerAnswers<RunsController> = {
  answers: {
    start: {
      status: 201,
      description: 'The run (a foreground run: once it ended)',
      schema: runSummary,
      example: runSummaryExample,
      request: { agentId: 'test-writer', prompt: 'Write unit tests for src/parser.ts', background: false },
    },
    list: {
      status: 200,
      description: 'A page of runs',
      schema: z.object({ runs: z.array(runView), nextCursor: nullable(z.string()) }),
      example: { runs: [runExample], nextCursor: null },
    },
    get: { status: 200, description: 'The run', schema: runView, example: runExample },
    output: { status: 200, description: 'Its status, and its output once completed', schema: runSummary, example: runSummaryExample },
    tree: {
      status: 200,
      description: 'The run and everything below it',
      schema: runTree,
      example: { ...runExample, kind: 'run', subtreeUsage: usageExample, children: [] },
    },
    stop: {
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
      request: { reason: 'not needed any more' },
    },
    steer: {
      status: 202,
      description: "Steered: the run's agent gets the message in its next model request (409 when the run or its turn is not running)",
      schema: agentSteered.extend({ runId: z.string() }),
      example: { sessionId: `sub-agent-${RUN_ID}`, target: 'main', agentName: 'test-writer', status: 'steered', runId: RUN_ID },
      request: { message: 'Skip the integration tests; unit tests are enough.' },
    },
    resume: {
      status: 200,
      description: 'The resumed run',
      schema: runSummary,
      example: { ...runSummaryExample, status: 'running', background: true, output: undefined },
      request: { prompt: 'Go on where you stopped.' },
    },
    replay: {
      status: 201,
      description: 'The replay: a new root run (a foreground one: once it ended)',
      schema: runSummary.extend({ replayOf: z.string() }),
      example: { ...runSummaryExample, runId: '0192f3a4-8888-7abc-8def-0123456789ab', replayOf: RUN_ID },
      request: { onDivergence: 'stop', allowSideEffects: false, background: true },
    },
    fork: {
      status: 201,
      description: 'The fork: a new root run, live from the given call (a foreground one: once it ended)',
      schema: runSummary.extend({ forkedFrom: z.object({ runId: z.string(), modelCallId: z.string() }) }),
      example: { ...runSummaryExample, runId: '0192f3a4-8888-7abc-8def-0123456789ab', forkedFrom: { runId: RUN_ID, modelCallId: MODEL_CALL_ID } },
      request: { fromModelCall: MODEL_CALL_ID, message: 'Use the second source instead.', agentOverrides: { researcher: { model: 'gpt-4.1' } } },
    },
  },
  pathParameters: { id: uuidParameter(RUN_ID) },
};

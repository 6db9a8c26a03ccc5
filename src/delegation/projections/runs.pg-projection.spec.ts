import fc from 'fast-check';
import { RUN_THREAD_PREFIX, runStreamId, sessionStreamId } from '../../event-store';
import type { BatchInvariant } from '../../projections';
import { CLI_EVENT_PREFIX, SessionEvents } from '../../sessions';
import { expectInvariantHolds, type LogEvent } from '../../../test/fixtures/batch-invariant-property';
import { RunEvents, type RunStartedData } from '../run.events';
import { TOOL_START, USAGE } from './run-usage';
import { runsCommuteAndCountersSum } from './runs.pg-projection';
import { RunsProjection } from './runs.projection';

const RUNS = ['a', 'b', 'c'];
const policy = { allowedAgents: null, excludedAgents: [], maxDepth: 3, maxConcurrentChildren: 4, timeoutMs: 60_000 };

function started(runId: string): LogEvent {
  const data: RunStartedData = {
    runId,
    agentId: 'coder',
    prompt: `do ${runId}`,
    background: true,
    parentRunId: null,
    parentThreadId: 'owner',
    ownerThreadId: 'owner',
    rootRunId: runId,
    depth: 0,
    path: `/${runId}/`,
    threadId: `${RUN_THREAD_PREFIX}${runId}`,
    epoch: 1,
    policy,
    budget: { max_tokens: 1000 },
  };
  return { streamId: runStreamId(runId), type: RunEvents.started, data: { ...data } };
}

function completed(runId: string): LogEvent {
  return { streamId: runStreamId(runId), type: RunEvents.completed, data: { runId, epoch: 1, output: `${runId} done` } };
}

const runId = fc.constantFrom(...RUNS);
/** Whole numbers mostly; now and then what a CLI could send instead (handled per event in both forms). */
const tokens = fc.oneof({ weight: 8, arbitrary: fc.nat(500) }, fc.constant(1.5), fc.constant('many'), fc.constant(null));
const onRunSession = (id: string) => sessionStreamId(`${RUN_THREAD_PREFIX}${id}`);

/** Every kind of event the runs projection reads, on runs that may or may not have started yet. */
const runsEvent: fc.Arbitrary<LogEvent> = fc.oneof(
  { weight: 3, arbitrary: runId.map(started) },
  { weight: 3, arbitrary: runId.map(completed) },
  runId.map((id) => ({ streamId: runStreamId(id), type: RunEvents.started, data: { ...started(id).data, depth: 1.5 } })),
  fc.record({ id: runId, input: tokens, output: tokens }).map(({ id, input, output }) => ({
    streamId: onRunSession(id),
    type: USAGE,
    data: { payload: { inputTokens: input, outputTokens: output } },
  })),
  runId.map((id) => ({ streamId: onRunSession(id), type: TOOL_START, data: { payload: { toolName: 'bash' } } })),
  fc.constant({ streamId: onRunSession('ghost'), type: TOOL_START, data: { payload: {} } }),
  fc.constant({ streamId: sessionStreamId('plain'), type: USAGE, data: { payload: { inputTokens: 9, outputTokens: 9 } } }),
  runId.map((id) => ({ streamId: onRunSession(id), type: `${CLI_EVENT_PREFIX}assistant.message`, data: { payload: { content: 'hi' } } })),
  runId.map((id) => ({ streamId: runStreamId(id), type: RunEvents.completed, data: { runId: id, epoch: 1, output: null } })),
  runId.map((id) => ({ streamId: runStreamId(id), type: RunEvents.failed, data: { runId: id, epoch: 1, error: 'boom' } })),
  runId.map((id) => ({
    streamId: runStreamId(id),
    type: RunEvents.stopped,
    data: { runId: id, epoch: 1, stoppedBy: { actor: 'api', reason: 'enough' }, forced: false },
  })),
  runId.map((id) => ({ streamId: runStreamId(id), type: RunEvents.interrupted, data: { runId: id, epoch: 1, reason: 'gone' } })),
  runId.map((id) => ({ streamId: runStreamId(id), type: RunEvents.resumed, data: { runId: id, epoch: 2, prompt: 'go on', resumedBy: 'api' } })),
  runId.map((id) => ({
    streamId: runStreamId(id),
    type: RunEvents.budgetWarned,
    data: { runId: id, limit: 'max_tokens', allowed: 1000, used: 820 },
  })),
  fc
    .subarray(RUNS)
    .map((ids) => ({ streamId: sessionStreamId('owner'), type: SessionEvents.reminded, data: { kind: 'runs', text: 'ended', runIds: ids } })),
  fc.record({ id: runId, told: fc.nat(3) }).map(({ id, told }) => ({
    streamId: sessionStreamId('owner'),
    type: SessionEvents.reminded,
    data: { kind: 'budget', text: 'warned', told: { [id]: told } },
  })),
);

/** A log of a few transactions; a run starts once at most (a second start fails its transaction in both forms alike). */
const runsLogs: fc.Arbitrary<LogEvent[][]> = fc.array(fc.array(runsEvent, { maxLength: 14 }), { minLength: 1, maxLength: 5 }).map((log) => {
  const startedRuns = new Set<string>();
  return log.map((transaction) =>
    transaction.filter((event) => {
      if (event.type !== RunEvents.started) return true;
      const id = String(event.data.runId);
      if (startedRuns.has(id)) return false;
      startedRuns.add(id);
      return true;
    }),
  );
});

describe('runsCommuteAndCountersSum: what the runs set-based form relies on, checked against RunsProjection', () => {
  it('is the invariant the runs projection names for its PostgreSQL form', () => {
    expect(new RunsProjection().setBased.postgres.invariant).toBe(runsCommuteAndCountersSum);
  });

  it('the runs the form folds moved after the handled events, then the counters (those before their start dropped): the same rows', () => {
    expectInvariantHolds({ projection: new RunsProjection(), table: 'runs', orderBy: 'run_id', logs: runsLogs });
  });

  it('the check can fail: counters moved before the other events (their run not created yet) count for nothing', () => {
    const countersFirst: BatchInvariant = {
      name: 'countersFirst',
      statement: 'wrong on purpose',
      normalForm: (events) => [
        ...events.filter((e) => e.type === USAGE || e.type === TOOL_START),
        ...events.filter((e) => e.type !== USAGE && e.type !== TOOL_START),
      ],
    };
    expect(() =>
      expectInvariantHolds({ projection: new RunsProjection(), invariant: countersFirst, table: 'runs', orderBy: 'run_id', logs: runsLogs }),
    ).toThrow(/countersFirst/);
  });

  it('the check can fail: completions moved before the starts (a run started in the batch not there yet) end nothing', () => {
    const completionsFirst: BatchInvariant = {
      name: 'completionsFirst',
      statement: 'wrong on purpose',
      normalForm: (events) => [...events.filter((e) => e.type === RunEvents.completed), ...events.filter((e) => e.type !== RunEvents.completed)],
    };
    expect(() =>
      expectInvariantHolds({ projection: new RunsProjection(), invariant: completionsFirst, table: 'runs', orderBy: 'run_id', logs: runsLogs }),
    ).toThrow(/completionsFirst does not hold for runs/);
  });
});

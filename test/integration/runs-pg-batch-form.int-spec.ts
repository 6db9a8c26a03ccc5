import { RunsProjection } from '../../src/delegation/projections/runs.projection';
import { RunEvents, type RunStartedData } from '../../src/delegation/run.events';
import type { StreamAppend } from '../../src/event-store/event-store.types';
import { RUN_THREAD_PREFIX, runStreamId, sessionStreamId } from '../../src/event-store/stream-ids';
import { CLI_EVENT_PREFIX, SessionEvents } from '../../src/sessions/session.events';
import { expectBatchFormWritesPerEventRows } from '../fixtures/batch-form-equivalence';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

jest.setTimeout(120_000);

const policy = { allowedAgents: null, excludedAgents: [], maxDepth: 3, maxConcurrentChildren: 4, timeoutMs: 60_000 };
function started(runId: string, parent?: string) {
  const root = parent ?? runId;
  return {
    type: RunEvents.started,
    data: {
      runId,
      agentId: 'coder',
      prompt: `do ${runId}`,
      background: !parent,
      parentRunId: parent ?? null,
      parentThreadId: parent ? `${RUN_THREAD_PREFIX}${parent}` : 'owner',
      ownerThreadId: parent ? `${RUN_THREAD_PREFIX}${parent}` : 'owner',
      rootRunId: root,
      depth: parent ? 1 : 0,
      path: parent ? `/${parent}/${runId}/` : `/${runId}/`,
      threadId: `${RUN_THREAD_PREFIX}${runId}`,
      epoch: 1,
      policy,
      ...(parent ? {} : { budget: { max_tokens: 1000 } }),
    } satisfies RunStartedData,
  };
}
const usage = (inputTokens: unknown, outputTokens: unknown) => ({
  type: `${CLI_EVENT_PREFIX}assistant.usage`,
  data: { payload: { inputTokens, outputTokens } },
});
const toolStart = { type: `${CLI_EVENT_PREFIX}tool.execution_start`, data: { payload: { toolName: 'bash' } } };
const message = { type: `${CLI_EVENT_PREFIX}assistant.message`, data: { payload: { content: 'hi' } } };
const onRun = (runId: string, ...events: StreamAppend['events']): StreamAppend => ({ streamId: runStreamId(runId), expectedVersion: 'any', events });
const onSession = (runId: string, ...events: StreamAppend['events']): StreamAppend => ({
  streamId: sessionStreamId(`${RUN_THREAD_PREFIX}${runId}`),
  expectedVersion: 'any',
  events,
});

/**
 * Batches of a few runs' lives, their sessions' usage and tool starts interleaved with the state
 * changes in every order the batch form has to get right: counters before a run's started (no row
 * yet: they count for nothing) and after it in one transaction, counters around an end, a resume, a
 * budget warning and the owner's reminders, counters of a run that never starts, a usage without
 * numbers, a session that is not a run's. A batch is what the projection gets at once, in global
 * order; one append names a stream once, so a batch naming a stream twice is written as several.
 */
function batches(): StreamAppend[][] {
  return [
    [onSession('a', usage(5, 1), toolStart), onRun('a', started('a')), onSession('a', usage(10, 2), toolStart, message), onSession('ghost', usage(7, 7))],
    [
      onRun('b', started('b', 'a')),
      onSession('b', toolStart, usage(3, 4)),
      onSession('a', usage(20, 8)),
      onSession('b', usage('many', null), toolStart),
      onRun('a', { type: RunEvents.budgetWarned, data: { runId: 'a', limit: 'max_tokens', allowed: 1000, used: 820 } }),
      onSession('a', toolStart),
      { streamId: sessionStreamId('plain'), expectedVersion: 'any', events: [usage(100, 100), toolStart] },
    ],
    [
      onSession('b', usage(1, 1)),
      onRun('b', { type: RunEvents.completed, data: { runId: 'b', epoch: 1, output: 'done' } }),
      onSession('b', toolStart),
      onSession('a', usage(2, 2)),
      onRun('a', { type: RunEvents.stopped, data: { runId: 'a', epoch: 1, stoppedBy: { actor: 'api', reason: 'enough' }, forced: false } }),
      onSession('a', usage(1, 0)),
      {
        streamId: sessionStreamId('owner'),
        expectedVersion: 'any',
        events: [{ type: SessionEvents.reminded, data: { kind: 'runs', text: 'b ended', runIds: ['b'] } }],
      },
    ],
    [
      onRun('a', { type: RunEvents.resumed, data: { runId: 'a', epoch: 2, prompt: 'go on', resumedBy: 'api' } }),
      onSession('a', toolStart, usage(30, 3)),
      {
        streamId: sessionStreamId('owner'),
        expectedVersion: 'any',
        events: [{ type: SessionEvents.reminded, data: { kind: 'budget', text: 'a warned', told: { a: 1 } } }],
      },
      onRun('c', started('c', 'a')),
      onSession('c', usage(4, 4)),
      onRun('a', { type: RunEvents.interrupted, data: { runId: 'a', epoch: 2, reason: 'instance gone' } }),
      onRun('c', { type: RunEvents.failed, data: { runId: 'c', epoch: 1, error: 'boom' } }),
      onSession('c', toolStart),
    ],
    [onSession('a', usage(6, 6)), onSession('c', toolStart, toolStart), onSession('ghost', toolStart)],
  ];
}

/** issue 43: a remote agent's run, and the link of its remote task (written by the handler in both forms). */
const startedRemote = (runId: string) => {
  const start = started(runId);
  return { ...start, data: { ...start.data, remote: { a2a: 'https://agents.example.com/a2a/x/.well-known/agent-card.json' } } };
};
const linked = (runId: string, instanceId: string) => ({
  type: RunEvents.remoteTaskLinked,
  data: { runId, epoch: 1, taskId: `task-${runId}`, contextId: 'ctx', service: 'X', instanceId },
});

const completed = (runId: string, output = `${runId} done`) => ({ type: RunEvents.completed, data: { runId, epoch: 1, output } });
const remindedOf = (runIds: string[]): StreamAppend => ({
  streamId: sessionStreamId('owner'),
  expectedVersion: 'any',
  events: [{ type: SessionEvents.reminded, data: { kind: 'runs', text: 'ended', runIds } }],
});

/**
 * Starts and completions in every case the form folds or leaves to the handler: several runs started
 * in one batch, a start and its completion in one (usage between), completion of a run started in an
 * earlier transaction (the launch's length from the row's launched_at), a completion before its run's
 * start, a reminder before and after a start in the batch, unsummed usage after a start, a second
 * completion of an ended run (its launch counted again, as the handler does), two completions in one
 * batch, a resume then a completion, a completion of a run that never started, a completion with no
 * output (left to the handler). A start PostgreSQL refuses (depth 1.5) fails its transaction in both
 * forms; the property spec covers it on SQLite.
 */
function startsAndCompletions(): StreamAppend[][] {
  return [
    [
      onRun('d', started('d')),
      onRun('e', started('e', 'd')),
      onRun('f', started('f', 'd')),
      onRun('g', started('g')),
      onSession('g', usage(3, 3), toolStart),
      onRun('g', completed('g')),
      onRun('h', completed('h')),
      onRun('h', started('h')),
      remindedOf(['i']),
      onRun('i', started('i')),
      onRun('j', started('j')),
      remindedOf(['j', 'h']),
      onRun('k', started('k')),
      onSession('k', usage('many', 1)),
      onRun('r', startedRemote('r')),
      onRun('r', linked('r', 'instance-1')),
      onRun('s', startedRemote('s')),
    ],
    [
      onRun('r', linked('r', 'instance-2')),
      onRun('r', completed('r')),
      onRun('s', completed('s')),
      onRun('d', completed('d')),
      onSession('e', usage(2, 2)),
      onRun('e', completed('e', '')),
      onSession('f', usage(null, 'x')),
      onRun('f', completed('f')),
      onRun('g', completed('g', 'again')),
      onRun('h', completed('h'), completed('h', 'twice')),
      onRun('i', { type: RunEvents.completed, data: { runId: 'i', epoch: 1 } }),
      remindedOf(['d', 'f']),
      onRun('ghost', completed('ghost')),
      onRun('n', started('n')),
      onSession('n', usage(1, 1)),
      onRun('n', completed('n')),
    ],
    [
      onRun('d', { type: RunEvents.resumed, data: { runId: 'd', epoch: 2, prompt: 'go on', resumedBy: 'api' } }, completed('d', 'second')),
      onRun('j', completed('j')),
      onRun('k', completed('k')),
      onRun('p', started('p')),
    ],
  ];
}

describe('runs on PostgreSQL: the batch form writes the rows the per-event projection writes', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await startPostgresServer();
  });

  afterAll(() => server?.stop());

  it('the same rows (status, counters, duration, warnings, times) after folding one log, transaction by transaction', async () => {
    const rows = await expectBatchFormWritesPerEventRows(server, {
      projection: new RunsProjection(),
      table: 'runs',
      orderBy: 'run_id',
      transactions: batches(),
    });
    // The log did what it was written for: every counter moved, usage before a start counted nothing (bigint as text).
    expect(rows.map((r) => [r.run_id, r.status, r.input_tokens, r.output_tokens, r.tool_calls])).toEqual([
      ['a', 'interrupted', '69', '21', '3'],
      ['b', 'completed', '4', '5', '3'],
      ['c', 'failed', '4', '4', '3'],
    ]);
  });

  it('the same rows after starts and completions, folded and left to the handler, transaction by transaction', async () => {
    const rows = await expectBatchFormWritesPerEventRows(server, {
      projection: new RunsProjection(),
      table: 'runs',
      orderBy: 'run_id',
      transactions: startsAndCompletions(),
    });
    expect(rows.map((r) => [r.run_id, r.status, r.output])).toEqual([
      ['d', 'completed', 'second'],
      ['e', 'completed', ''],
      ['f', 'completed', 'f done'],
      ['g', 'completed', 'again'],
      ['h', 'completed', 'twice'],
      ['i', 'completed', null],
      ['j', 'completed', 'j done'],
      ['k', 'completed', 'k done'],
      ['n', 'completed', 'n done'],
      ['p', 'running', null],
      ['r', 'completed', 'r done'],
      ['s', 'completed', 's done'],
    ]);
    // issue 43: the remote task's link merged into the card the start recorded, the last instance to follow it kept.
    expect(JSON.parse(rows.find((r) => r.run_id === 'r')?.remote as string)).toEqual({
      a2a: 'https://agents.example.com/a2a/x/.well-known/agent-card.json',
      taskId: 'task-r',
      contextId: 'ctx',
      service: 'X',
      instanceId: 'instance-2',
    });
  });
});

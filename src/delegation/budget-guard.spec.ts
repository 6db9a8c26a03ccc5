import { Subject } from 'rxjs';
import { runRow } from '../../test/fixtures/run-forest';
import type { EventStore, StoredEvent } from '../event-store';
import type { ModelCallsReadModel } from '../model-calls';
import type { PauseHolds } from '../pauses';
import type { RunRow, RunsReadModel, SubtreeSpend } from '../run-lineage';
import type { SessionRegistry } from '../sessions';
import { BudgetGuard } from './budget-guard';
import type { StoppedBy } from './run.events';
import { RunHandleTable } from './run-handle-table';
import type { RunRepository } from './run-repository';
import type { RunStopper } from './run-stopper';

/** A running root run with `max_tokens: 100` that has spent more: what every instance reads from the shared runs table. */
function overBudget(runId: string): RunRow {
  return runRow(undefined, {
    runId,
    status: 'running',
    background: true,
    inputTokens: 400,
    outputTokens: 100,
    budget: JSON.stringify({ max_tokens: 100 }),
  });
}

/**
 * With several instances on one database every instance reads every run: only the instance executing a
 * budgeted run (it holds the run's live handle) may stop it. Another's stop would record the run stopped
 * without aborting the CLI turn that instance does not have, and the turn would go on spending.
 */
describe('BudgetGuard on one of several instances', () => {
  const spend: SubtreeSpend = { runs: 1, tokens: 500, toolCalls: 0, durationMs: 0 };
  let guard: BudgetGuard;
  let stops: Array<{ runId: string; stoppedBy: StoppedBy }>;
  let stopped: Promise<void>;

  beforeEach(() => {
    const held = overBudget('run-held-here');
    const elsewhere = overBudget('run-held-elsewhere');
    const handles = new RunHandleTable();
    handles.open(held.runId, held.ownerThreadId, held.epoch);
    stops = [];
    let signalStop!: () => void;
    stopped = new Promise((resolve) => (signalStop = resolve));
    const runs = {
      // The instance elsewhere comes first: with both over budget, its check runs through the same awaits.
      runningBudgeted: async () => [elsewhere, held],
      subtreeSpend: async () => spend,
      find: async (runId: string) => [elsewhere, held].find((row) => row.runId === runId),
      budgetedAmong: async (ids: string[]) => [elsewhere, held].filter((row) => ids.includes(row.runId)),
      sessionsWithRunningRuns: async () => [],
    } as unknown as RunsReadModel;
    const stopper = {
      stopTree: async (runId: string, stoppedBy: StoppedBy) => {
        stops.push({ runId, stoppedBy });
        if (runId === held.runId) signalStop();
        return [runId];
      },
    } as unknown as RunStopper;
    const store = { committed$: new Subject<StoredEvent>() } as unknown as EventStore;
    const sessions = { all: () => [], get: () => undefined } as unknown as SessionRegistry;
    const calls = {
      spendOf: async (keys: unknown[]) => keys.map(() => ({ calls: 0, inputTokens: 0, outputTokens: 0, cost: 0, currency: null, unpricedCalls: 0 })),
    } as unknown as ModelCallsReadModel;
    const pauses = { anyPauseSeen: () => false } as unknown as PauseHolds;
    guard = new BudgetGuard(store, runs, stopper, {} as RunRepository, handles, sessions, calls, pauses);
  });

  afterEach(() => guard.onModuleDestroy());

  it('stops the budgeted run it executes and leaves the one another instance executes to that instance', async () => {
    guard.onModuleInit();
    await stopped;
    expect(stops).toEqual([
      { runId: 'run-held-here', stoppedBy: { actor: 'budget', reason: 'budget_exceeded', limit: 'max_tokens', allowed: 100, used: 500 } },
    ]);
  });
});

/** issue 26: a subtree's budget time leaves out what pauses held of its runs' launches. */
describe('BudgetGuard budget time', () => {
  const now = Date.parse('2026-11-27T10:00:10.000Z');
  const calls = {
    spendOf: async (keys: unknown[]) => keys.map(() => ({ calls: 0, inputTokens: 0, outputTokens: 0, cost: 0, currency: null, unpricedCalls: 0 })),
  } as unknown as ModelCallsReadModel;
  const runs = {
    subtreeSpend: async (): Promise<SubtreeSpend> => ({ runs: 2, tokens: 0, toolCalls: 0, durationMs: 15_000 }),
    subtreeLaunches: async () => [
      { threadId: 'sub-agent-r1', status: 'running', launchedAt: '2026-11-27T10:00:00.000Z', endedAt: null },
      { threadId: 'sub-agent-r2', status: 'completed', launchedAt: '2026-11-27T10:00:02.000Z', endedAt: '2026-11-27T10:00:07.000Z' },
    ],
  } as unknown as RunsReadModel;
  const guardWith = (pauses: Partial<PauseHolds>) =>
    new BudgetGuard(
      {} as EventStore,
      runs,
      {} as RunStopper,
      {} as RunRepository,
      new RunHandleTable(),
      {} as SessionRegistry,
      calls,
      pauses as PauseHolds,
    );

  it("subtracts the paused time within each run's launch (up to now while it runs, up to its end after)", async () => {
    const asked: Array<[string, number, number]> = [];
    const guard = guardWith({
      anyPauseSeen: () => true,
      pausedMsOver: async (sessionId: string, from: number, to: number) => {
        asked.push([sessionId, from, to]);
        return sessionId === 'sub-agent-r1' ? 4_000 : 3_000;
      },
    });
    expect((await guard.subtreeUse('/r1/', now)).duration_ms).toBe(8_000);
    expect(asked).toEqual([
      ['sub-agent-r1', Date.parse('2026-11-27T10:00:00.000Z'), now],
      ['sub-agent-r2', Date.parse('2026-11-27T10:00:02.000Z'), Date.parse('2026-11-27T10:00:07.000Z')],
    ]);
  });

  it('reads nothing more while no pause was ever seen', async () => {
    const guard = guardWith({ anyPauseSeen: () => false });
    expect((await guard.subtreeUse('/r1/', now)).duration_ms).toBe(15_000);
  });
});

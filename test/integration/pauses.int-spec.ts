import { RunsProjection } from '../../src/delegation/projections/runs.projection';
import { handleCommand } from '../../src/event-store/decider';
import { pauseStreamId, runStreamId } from '../../src/event-store/stream-ids';
import { pauseDecider } from '../../src/pauses/pause.decider';
import { PauseHolds } from '../../src/pauses/pause-holds';
import { PausesProjection } from '../../src/pauses/projections/pauses.projection';
import { LineageLookup } from '../../src/run-lineage/lineage-lookup';
import { eventStoreTargets, type EventStoreTarget } from '../fixtures/event-store-targets';
import { runStartedData } from '../fixtures/run-fixtures';
import { waitUntil } from '../fixtures/wait-until';

/**
 * issue 26 on both databases: the pauses table keeps one row per pause interval, a new PauseHolds (a
 * restart) loads the open ones, and on PostgreSQL a second instance learns of a pause and of its end
 * from `committed$`, so it holds and releases its own sessions' steps too.
 */
describe.each(eventStoreTargets())('pauses on %s', (_name, open) => {
  let target: EventStoreTarget;
  const started: PauseHolds[] = [];

  const holdsOn = async (store: EventStoreTarget['store']): Promise<PauseHolds> => {
    const holds = new PauseHolds(target.db, store, new LineageLookup(target.db));
    await holds.onModuleInit();
    started.push(holds);
    return holds;
  };

  const act = async (command: Parameters<typeof pauseDecider.decide>[0], id: string) =>
    handleCommand(target.store, pauseDecider, pauseStreamId('run', id), command, { metadata: { actor: 'api' } });

  beforeEach(async () => {
    target = await open({ projections: () => [new RunsProjection(), new PausesProjection()] });
    for (const data of [
      runStartedData({ runId: 'r1', rootRunId: 'r1', path: '/r1/', threadId: 'sub-agent-r1' }),
      runStartedData({ runId: 'r2', rootRunId: 'r1', parentRunId: 'r1', path: '/r1/r2/', threadId: 'sub-agent-r2', depth: 2 }),
    ]) {
      await target.store.append(runStreamId(data.runId), 'no_stream', [{ type: 'run.started', data: { ...data }, metadata: { actor: 'api' } }]);
    }
  });

  afterEach(async () => {
    for (const holds of started.splice(0)) holds.onModuleDestroy();
    await target.close();
  });

  it('keeps one row per pause interval, and a restart holds what is still paused', async () => {
    const t0 = Date.parse('2026-11-27T10:00:00.000Z');
    const pause = { pauseId: 'p1', target: 'run' as const, runId: 'r1', runPath: '/r1/', pausedBy: 'console', reason: 'look' };
    await act({ type: 'pause', pause, now: t0 }, 'r1');
    await act({ type: 'unpause', target: 'run', id: 'r1', unpausedBy: 'api', now: t0 + 5_000 }, 'r1');
    await act({ type: 'pause', pause: { ...pause, pauseId: 'p2', reason: undefined }, now: t0 + 9_000 }, 'r1');
    const rows = await target.db.orm.select().from(target.db.tables.pauses).orderBy(target.db.tables.pauses.pausedPosition);
    expect(rows).toMatchObject([
      { pauseId: 'p1', target: 'run', targetId: 'r1', runPath: '/r1/', pausedBy: 'console', reason: 'look', unpausedBy: 'api', pausedMs: 5_000 },
      { pauseId: 'p2', target: 'run', targetId: 'r1', pausedBy: 'console', reason: null, unpausedAt: null, unpausedBy: null, pausedMs: null },
    ]);

    const holds = await holdsOn(target.store);
    expect(await holds.pauseOverRun('r2')).toMatchObject({ target: 'run', runId: 'r1', by: 'console', since: '2026-11-27T10:00:09.000Z', held: 0 });
    const held = holds.waitWhilePaused('sub-agent-r2');
    await waitUntil(async () => (await holds.pauseOverRun('r2'))?.held === 1, 'the step to be held');
    await act({ type: 'unpause', target: 'run', id: 'r1', unpausedBy: 'api', now: Date.now() }, 'r1');
    // Released by the committed unpause alone: nobody handed it to these holds.
    await expect(held).resolves.toBe(true);
  });

  it('holds on another instance, which learns of the pause and its end from the log', async () => {
    const other = await target.openAnother();
    const here = await holdsOn(target.store);
    const there = await holdsOn(other.store);
    await act({ type: 'pause', pause: { pauseId: 'p1', target: 'run', runId: 'r2', pausedBy: 'api' }, now: Date.now() }, 'r2');
    if (!target.tailsOtherStores) {
      // SQLite has one writer per process: only the instance that wrote sees it live.
      await waitUntil(async () => (await here.pauseOverRun('r2')) !== undefined, 'the writer to see the pause');
      return;
    }
    await waitUntil(async () => (await there.pauseOverRun('r2')) !== undefined, 'the other instance to see the pause', 10_000);
    const held = there.waitWhilePaused('sub-agent-r2');
    await waitUntil(async () => (await there.pauseOverRun('r2'))?.held === 1, 'the step to be held there');
    await act({ type: 'unpause', target: 'run', id: 'r2', unpausedBy: 'api', now: Date.now() }, 'r2');
    await expect(held).resolves.toBe(true);
  });
});

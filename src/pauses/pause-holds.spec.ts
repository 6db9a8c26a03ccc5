import { openTestEventStore, type TestEventStore } from '../../test/fixtures/event-store-fixture';
import { runStartedData } from '../../test/fixtures/run-fixtures';
import { RunsProjection } from '../delegation';
import { handleCommand, type PauseTarget, pauseStreamId, runStreamId, runThreadId } from '../event-store';
import { ProjectionRegistry } from '../projections';
import { LineageLookup } from '../run-lineage';
import { pauseDecider } from './pause.decider';
import { PauseHolds } from './pause-holds';
import { PausesProjection } from './projections/pauses.projection';

/** The real lineage lookup, counting its reads: nothing paused must mean no read at all. */
class CountedLineageLookup extends LineageLookup {
  reads = 0;
  override lineageOfSession(sessionId: string) {
    this.reads += 1;
    return super.lineageOfSession(sessionId);
  }
}

/**
 * A tree started by session `s1`: root r1 → r2 → r3, and r1 → r4 beside r2. Real SQLite store with the
 * runs and pauses projections, so the holds read the same rows as in the app.
 */
describe('PauseHolds', () => {
  let fixture: TestEventStore;
  let lineages: CountedLineageLookup;
  let holds: PauseHolds;

  const tree = [
    runStartedData({ runId: 'r1', rootRunId: 'r1', path: '/r1/', threadId: 'sub-agent-r1', ownerThreadId: 's1', depth: 1 }),
    runStartedData({
      runId: 'r2',
      rootRunId: 'r1',
      parentRunId: 'r1',
      path: '/r1/r2/',
      threadId: 'sub-agent-r2',
      ownerThreadId: 'sub-agent-r1',
      depth: 2,
    }),
    runStartedData({
      runId: 'r3',
      rootRunId: 'r1',
      parentRunId: 'r2',
      path: '/r1/r2/r3/',
      threadId: 'sub-agent-r3',
      ownerThreadId: 'sub-agent-r2',
      depth: 3,
    }),
    runStartedData({
      runId: 'r4',
      rootRunId: 'r1',
      parentRunId: 'r1',
      path: '/r1/r4/',
      threadId: 'sub-agent-r4',
      ownerThreadId: 'sub-agent-r1',
      depth: 2,
    }),
  ];

  async function openHolds(): Promise<PauseHolds> {
    const opened = new PauseHolds(fixture.database.readModels, fixture.store, lineages);
    await opened.onModuleInit();
    return opened;
  }

  async function pause(target: PauseTarget, id: string, at = Date.now()): Promise<void> {
    const streamId = pauseStreamId(target, id);
    const pauseData = { pauseId: `${target}-${id}-${at}`, target, pausedBy: 'api', ...(target === 'run' ? { runId: id } : { sessionId: id }) };
    const { events } = await handleCommand(
      fixture.store,
      pauseDecider,
      streamId,
      { type: 'pause', pause: pauseData, now: at },
      { metadata: { actor: 'api' } },
    );
    for (const event of events) holds.applied({ ...event, streamId });
  }

  async function unpause(target: PauseTarget, id: string, at = Date.now()): Promise<void> {
    const streamId = pauseStreamId(target, id);
    const { events } = await handleCommand(fixture.store, pauseDecider, streamId, { type: 'unpause', target, id, unpausedBy: 'api', now: at }, {});
    for (const event of events) holds.applied({ ...event, streamId });
  }

  /** Starts a wait and notes when (and how) it ended, in `order`. */
  function wait(sessionId: string, order: string[], signal?: AbortSignal) {
    return holds.waitWhilePaused(sessionId, signal).then((goOn) => {
      order.push(`${sessionId}:${goOn ? 'go' : 'end'}`);
      return goOn;
    });
  }

  /** Lets the holds' lineage reads (real SQLite, microtasks) settle. */
  const settled = async (n: number) => {
    for (let i = 0; i < 50 && (await holds.pauseOverRun('r2'))?.held !== n; i++) await new Promise((r) => setImmediate(r));
  };

  beforeEach(async () => {
    const registry = new ProjectionRegistry();
    registry.register(new RunsProjection());
    registry.register(new PausesProjection());
    fixture = openTestEventStore(undefined, registry);
    lineages = new CountedLineageLookup(fixture.database.readModels);
    for (const data of tree)
      await fixture.store.append(runStreamId(data.runId), 'no_stream', [{ type: 'run.started', data: { ...data }, metadata: { actor: 'api' } }]);
    holds = await openHolds();
  });

  afterEach(() => {
    holds.onModuleDestroy();
    fixture.close();
  });

  it('lets every step through at once, reading nothing, while nothing is paused', async () => {
    await expect(holds.waitWhilePaused('sub-agent-r3')).resolves.toBe(true);
    await expect(holds.waitWhilePaused('s1')).resolves.toBe(true);
    expect(lineages.reads).toBe(0);
    expect(await holds.pauseOverRun('r3')).toBeUndefined();
  });

  it("holds the paused run's subtree only, and releases its steps in the order they came", async () => {
    await pause('run', 'r2');
    const order: string[] = [];
    const waits = [wait('sub-agent-r3', order), wait('sub-agent-r2', order), wait('sub-agent-r3', order)];
    // Outside the subtree: its parent and its sibling go on.
    await expect(holds.waitWhilePaused('sub-agent-r1')).resolves.toBe(true);
    await expect(holds.waitWhilePaused('sub-agent-r4')).resolves.toBe(true);
    await expect(holds.waitWhilePaused('s1')).resolves.toBe(true);
    await settled(3);
    expect(order).toEqual([]);
    expect(await holds.pauseOverRun('r3')).toMatchObject({ target: 'run', runId: 'r2', by: 'api', held: 3 });
    expect(await holds.pauseOverRun('r4')).toBeUndefined();

    await unpause('run', 'r2');
    await expect(Promise.all(waits)).resolves.toEqual([true, true, true]);
    expect(order).toEqual(['sub-agent-r3:go', 'sub-agent-r2:go', 'sub-agent-r3:go']);
    expect(await holds.pauseOverRun('r3')).toBeUndefined();
  });

  it('holds a session, and every run it started, when the session is paused', async () => {
    await pause('session', 's1');
    const order: string[] = [];
    const waits = [wait('s1', order), wait('sub-agent-r3', order)];
    await expect(holds.waitWhilePaused('s2')).resolves.toBe(true);
    expect(await holds.pauseOverRun('r4')).toMatchObject({ target: 'session', sessionId: 's1' });
    await unpause('session', 's1');
    await expect(Promise.all(waits)).resolves.toEqual([true, true]);
    expect(order).toEqual(['s1:go', 'sub-agent-r3:go']);
  });

  it('keeps holding under an ancestor still paused when the inner pause ends', async () => {
    await pause('run', 'r1');
    await pause('run', 'r2');
    const order: string[] = [];
    const held = wait('sub-agent-r3', order);
    await unpause('run', 'r2');
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    expect(await holds.pauseOverRun('r3')).toMatchObject({ runId: 'r1' });
    await unpause('run', 'r1');
    await expect(held).resolves.toBe(true);
  });

  it('ends a wait without letting it go on when its signal aborts or its run ends', async () => {
    await pause('run', 'r2');
    const order: string[] = [];
    const abort = new AbortController();
    const aborted = wait('sub-agent-r3', order, abort.signal);
    const stopped = wait('sub-agent-r2', order);
    const other = wait('sub-agent-r3', order);
    await settled(3);
    abort.abort();
    await expect(aborted).resolves.toBe(false);
    await fixture.store.append(runStreamId('r2'), 1, [{ type: 'run.stopped', data: { runId: 'r2', epoch: 1 }, metadata: { actor: 'api' } }]);
    await expect(stopped).resolves.toBe(false);
    expect(order).toEqual(['sub-agent-r3:end', 'sub-agent-r2:end']);
    await unpause('run', 'r2');
    await expect(other).resolves.toBe(true);
  });

  it('never holds a step of a run that ended under the pause (a call the CLI retries after a stop), until the run resumes', async () => {
    await pause('run', 'r2');
    await fixture.store.append(runStreamId('r2'), 1, [{ type: 'run.stopped', data: { runId: 'r2', epoch: 1 }, metadata: { actor: 'api' } }]);
    const order: string[] = [];
    await expect(wait('sub-agent-r2', order)).resolves.toBe(false);
    expect((await holds.pauseOverRun('r2'))?.held).toBe(0);

    await fixture.store.append(runStreamId('r2'), 2, [
      { type: 'run.resumed', data: { runId: 'r2', epoch: 2, prompt: 'go on', resumedBy: 'api' }, metadata: { actor: 'api' } },
    ]);
    const held = wait('sub-agent-r2', order);
    await settled(1);
    expect((await holds.pauseOverRun('r2'))?.held).toBe(1);
    await unpause('run', 'r2');
    await expect(held).resolves.toBe(true);
  });

  it('still holds after a restart: the open pause is loaded from the pauses table', async () => {
    await pause('run', 'r2');
    holds.onModuleDestroy();
    holds = await openHolds();
    const order: string[] = [];
    const held = wait('sub-agent-r3', order);
    await settled(1);
    expect(order).toEqual([]);
    expect(await holds.pauseOverRun('r2')).toMatchObject({ target: 'run', runId: 'r2', by: 'api', held: 1 });
    await unpause('run', 'r2');
    await expect(held).resolves.toBe(true);
  });

  it('counts the time pauses over a run held within a window, overlapping pauses once (what its time limit leaves out)', async () => {
    const t0 = Date.now() - 10_000;
    await pause('run', 'r1', t0);
    await pause('run', 'r2', t0 + 1_000);
    await unpause('run', 'r1', t0 + 3_000);
    await unpause('run', 'r2', t0 + 4_000);
    await pause('session', 's1', t0 + 6_000);
    await unpause('session', 's1', t0 + 7_000);
    expect(await holds.pausedMsOver(runThreadId('r3'), t0, t0 + 10_000)).toBe(5_000);
    expect(await holds.pausedMsOver(runThreadId('r3'), t0 + 2_000, t0 + 6_500)).toBe(2_500);
    expect(await holds.pausedMsOver(runThreadId('r4'), t0, t0 + 10_000)).toBe(4_000);
  });
});

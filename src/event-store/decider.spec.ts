import { openTestEventStore, type TestEventStore } from '../../test/fixtures/event-store-fixture';
import { type Decider, type DomainEvent, eventGuard, foldEvents, handleCommand, planCommand } from './decider';
import { ExpectedVersionConflictError } from './event-store.errors';

/** A counter with a ceiling: small enough to read, enough to show a lost race. */
type CounterEvent = DomainEvent<'counter.added', { by: number }>;
type Counter = { total: number };
type Add = { by: number; max: number };

const counter: Decider<Counter, Add, CounterEvent> = {
  isEvent: eventGuard<CounterEvent>(['counter.added']),
  initialState: () => ({ total: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.by }),
  decide: (command, state) => {
    if (command.by === 0) return [];
    if (state.total + command.by > command.max) throw new Error(`over ${command.max}`);
    return [{ type: 'counter.added', data: { by: command.by } }];
  },
};

describe('handleCommand', () => {
  let es: TestEventStore;
  beforeEach(() => {
    es = openTestEventStore();
  });
  afterEach(() => es.close());

  it('folds the stream, appends what decide returns with the version it read, and answers the new state', async () => {
    const first = await handleCommand(es.store, counter, 'counter-1', { by: 2, max: 10 }, { metadata: { actor: 'test' } });
    expect(first).toEqual({ state: { total: 2 }, events: [{ type: 'counter.added', data: { by: 2 } }], version: 1 });
    const second = await handleCommand(es.store, counter, 'counter-1', { by: 3, max: 10 });
    expect(second.state).toEqual({ total: 5 });
    const stored = await es.store.readStream('counter-1');
    expect(stored.map((e) => [e.streamPosition, e.data])).toEqual([
      [1, { by: 2 }],
      [2, { by: 3 }],
    ]);
    expect(stored[0].metadata).toMatchObject({ actor: 'test' });
    expect(
      foldEvents(
        counter,
        stored.map((e): CounterEvent => ({ type: 'counter.added', data: { by: Number(e.data.by) } })),
      ),
    ).toEqual({ total: 5 });
  });

  it('appends nothing when the command changes nothing', async () => {
    await handleCommand(es.store, counter, 'counter-1', { by: 1, max: 10 });
    expect(await handleCommand(es.store, counter, 'counter-1', { by: 0, max: 10 })).toEqual({ state: { total: 1 }, events: [], version: 1 });
    expect(await es.store.readStream('counter-1')).toHaveLength(1);
  });

  it('lets only one of two racing commands win against the same state: the other decides again on the new state', async () => {
    // Both read total 0; each alone would fit under the ceiling of 5, together they would not.
    const results = await Promise.allSettled([
      handleCommand(es.store, counter, 'counter-1', { by: 3, max: 5 }),
      handleCommand(es.store, counter, 'counter-1', { by: 3, max: 5 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.message).toBe('over 5');
    expect(await es.store.readStream('counter-1')).toHaveLength(1);
  });

  it('refuses a stale expected version (If-Match) without retrying, even for a command that changes nothing', async () => {
    await handleCommand(es.store, counter, 'counter-1', { by: 1, max: 10 });
    await expect(handleCommand(es.store, counter, 'counter-1', { by: 0, max: 10 }, { expectedVersion: 0 })).rejects.toThrow(ExpectedVersionConflictError);
    await expect(handleCommand(es.store, counter, 'counter-1', { by: 1, max: 10 }, { expectedVersion: 1 })).resolves.toMatchObject({ version: 2 });
  });

  it('appends to other streams in the same commit, from the state before and after', async () => {
    await handleCommand(
      es.store,
      counter,
      'counter-1',
      { by: 4, max: 10 },
      {
        alsoAppend: (before, after) => [
          { streamId: 'audit-1', expectedVersion: 'any', events: [{ type: 'counter.moved', data: { from: before.total, to: after.total } }] },
        ],
      },
    );
    expect((await es.store.readStream('audit-1')).map((e) => e.data)).toEqual([{ from: 0, to: 4 }]);
  });

  it('lets the decider refuse before a stale expected version is looked at', async () => {
    await handleCommand(es.store, counter, 'counter-1', { by: 4, max: 10 });
    await expect(handleCommand(es.store, counter, 'counter-1', { by: 9, max: 10 }, { expectedVersion: 0 })).rejects.toThrow('over 10');
  });

  it('starts from a cached state and version, reading and folding only the events after it', async () => {
    const first = await handleCommand(es.store, counter, 'counter-1', { by: 2, max: 100 });
    await es.store.append('counter-1', 1, [{ type: 'counter.added', data: { by: 5 } }]); // another writer
    const reads: Array<number | undefined> = [];
    const store = {
      readStream: (id: string, options?: { fromVersion?: number }) => (reads.push(options?.fromVersion), es.store.readStream(id, options)),
      appendMany: es.store.appendMany.bind(es.store),
    };
    const next = await handleCommand(store, counter, 'counter-1', { by: 1, max: 100 }, { from: { state: first.state, version: first.version } });
    expect(reads).toStrictEqual([2]);
    expect(next).toMatchObject({ state: { total: 8 }, version: 3 });
    expect((await es.store.readStream('counter-1')).map((e) => e.data.by)).toEqual([2, 5, 1]);
  });

  it('retries a conflict from the state it folded, reading only what the winner appended', async () => {
    const first = await handleCommand(es.store, counter, 'counter-1', { by: 2, max: 100 });
    const reads: Array<number | undefined> = [];
    const store = {
      readStream: (id: string, options?: { fromVersion?: number; limit?: number }) => {
        // Another writer gets in between the first read and its append.
        if (reads.length === 0) void es.store.append('counter-1', 'any', [{ type: 'counter.added', data: { by: 5 } }]);
        reads.push(options?.fromVersion);
        return es.store.readStream(id, options);
      },
      appendMany: es.store.appendMany.bind(es.store),
    };
    const next = await handleCommand(store, counter, 'counter-1', { by: 1, max: 100 }, { from: { state: first.state, version: first.version } });
    // The first try read after version 1 and found nothing yet; the retry reads after version 1 again (the 5), not from 1.
    expect(reads).toStrictEqual([2, 2]);
    expect(next).toMatchObject({ state: { total: 8 }, version: 3 });
  });

  it('retries racing commands on a long stream without reading it again: each retry reads after the version it folded', async () => {
    await es.store.append(
      'counter-1',
      'no_stream',
      Array.from({ length: 1200 }, () => ({ type: 'counter.added', data: { by: 0 } })),
    );
    const reads: Array<{ fromVersion: number; events: number }> = [];
    const store = {
      readStream: async (id: string, options: { fromVersion?: number; limit?: number } = {}) => {
        const events = await es.store.readStream(id, options);
        reads.push({ fromVersion: options.fromVersion ?? 1, events: events.length });
        return events;
      },
      appendMany: es.store.appendMany.bind(es.store),
    };
    const results = await Promise.all(Array.from({ length: 6 }, () => handleCommand(store, counter, 'counter-1', { by: 1, max: 100 }, { retries: 6 })));
    expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual([1201, 1202, 1203, 1204, 1205, 1206]);
    expect(results.map((r) => r.state.total).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    // Six first loads of the 1,200 events (three pages each), then only the events the winners appended.
    expect(reads.filter((r) => r.fromVersion <= 1200)).toHaveLength(6 * 3);
    const retried = reads.filter((r) => r.fromVersion > 1200);
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.reduce((sum, r) => sum + r.events, 0)).toBeLessThanOrEqual(5 * 6);
  });

  it('reads a long stream a page at a time and lets the event loop run between pages', async () => {
    await es.store.append(
      'counter-1',
      'no_stream',
      Array.from({ length: 1100 }, () => ({ type: 'counter.added', data: { by: 0 } })),
    );
    const reads: number[] = [];
    const store = {
      readStream: (id: string, options: { fromVersion?: number; limit?: number } = {}) => {
        reads.push(options.fromVersion ?? 1);
        return es.store.readStream(id, options);
      },
      appendMany: es.store.appendMany.bind(es.store),
    };
    let readsBeforeTheLoopRan: number | undefined;
    setImmediate(() => (readsBeforeTheLoopRan = reads.length));
    const result = await handleCommand(store, counter, 'counter-1', { by: 1, max: 10 });
    expect(result).toMatchObject({ state: { total: 1 }, version: 1101 });
    expect(reads).toStrictEqual([1, 501, 1001]);
    // SQLite reads synchronously: without a pause between pages, a callback waiting on the loop would run after the last read.
    expect(readsBeforeTheLoopRan).toBeLessThan(3);
  });

  it('takes metadata from the state after the command when given a function', async () => {
    await handleCommand(es.store, counter, 'counter-1', { by: 4, max: 10 }, { metadata: (after) => ({ correlationId: `total-${after.total}` }) });
    expect((await es.store.readStream('counter-1'))[0].metadata).toMatchObject({ correlationId: 'total-4' });
  });
});

describe('planCommand', () => {
  let es: TestEventStore;
  beforeEach(() => {
    es = openTestEventStore();
  });
  afterEach(() => es.close());

  it('says what to append, guarded by the version it read, without appending; several plans commit together', async () => {
    await handleCommand(es.store, counter, 'counter-1', { by: 1, max: 10 });
    const first = await planCommand(es.store, counter, 'counter-1', { by: 2, max: 10 }, { metadata: { actor: 'import' } });
    const second = await planCommand(es.store, counter, 'counter-2', { by: 5, max: 10 });
    expect(first).toMatchObject({ state: { total: 3 }, version: 2 });
    expect(first.appends).toEqual([
      { streamId: 'counter-1', expectedVersion: 1, events: [{ type: 'counter.added', data: { by: 2 }, metadata: { actor: 'import' } }] },
    ]);
    expect(second.appends[0]).toMatchObject({ streamId: 'counter-2', expectedVersion: 'no_stream' });
    expect(await es.store.readStream('counter-1')).toHaveLength(1);
    await es.store.appendMany([...first.appends, ...second.appends]);
    expect((await es.store.readStream('counter-2')).map((e) => e.data)).toEqual([{ by: 5 }]);
  });

  it('plans nothing for a command that changes nothing', async () => {
    expect(await planCommand(es.store, counter, 'counter-1', { by: 0, max: 10 })).toEqual({ state: { total: 0 }, events: [], version: 0, appends: [] });
  });
});

describe('eventGuard', () => {
  it("tells a stream's own events by type and keeps a stored event's other fields", () => {
    const isCounterEvent = eventGuard<CounterEvent>(['counter.added']);
    const stored = { type: 'counter.added', data: { by: 2 } as Record<string, unknown>, streamPosition: 7 };
    expect(isCounterEvent(stored)).toBe(true);
    if (isCounterEvent(stored)) expect(stored.data.by + stored.streamPosition).toBe(9);
    expect(isCounterEvent({ type: 'run.started' })).toBe(false);
  });
});

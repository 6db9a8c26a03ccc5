import { openTestEventStore, type TestEventStore } from '../../test/fixtures/event-store-fixture';
import { type Decider, type DomainEvent, eventGuard, foldEvents, handleCommand, planCommand } from './decider';
import { ExpectedVersionConflictError } from './event-store.errors';

/** A counter with a ceiling: small enough to read, enough to show a lost race. */
type CounterEvent = DomainEvent<'counter.added', { by: number }>;
type Counter = { total: number };
type Add = { by: number; max: number };

const counter: Decider<Counter, Add, CounterEvent> = {
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

  it('falls back to a full load when the append from a cached state meets a conflict', async () => {
    const first = await handleCommand(es.store, counter, 'counter-1', { by: 2, max: 100 });
    const reads: Array<number | undefined> = [];
    const store = {
      readStream: (id: string, options?: { fromVersion?: number }) => {
        // Another writer gets in between the first read and its append.
        if (reads.length === 0) void es.store.append('counter-1', 'any', [{ type: 'counter.added', data: { by: 5 } }]);
        reads.push(options?.fromVersion);
        return es.store.readStream(id, options);
      },
      appendMany: es.store.appendMany.bind(es.store),
    };
    const next = await handleCommand(store, counter, 'counter-1', { by: 1, max: 100 }, { from: { state: first.state, version: first.version } });
    expect(reads).toStrictEqual([2, undefined]);
    expect(next).toMatchObject({ state: { total: 8 }, version: 3 });
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

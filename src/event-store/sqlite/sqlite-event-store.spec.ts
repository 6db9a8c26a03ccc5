import { firstValueFrom, take, toArray } from 'rxjs';
import { actingAs, type Actor } from '../../common';
import { applyPendingMigrations, openSqliteConnection, SqliteDatabase } from '../../database';
import { StreamSummariesProjection } from '../../event-log';
import { AppendFailedError, ExpectedVersionConflictError, InvalidAppendError } from '../event-store.errors';
import { SqliteEventStore as EventStore } from './sqlite-event-store';
import { InlineProjections, type Projection, perEventProjection, ProjectionRegistry } from '../../projections';

function memoryStore(extra: Projection[] = []) {
  const connection = openSqliteConnection({ file: ':memory:', synchronous: 'FULL', busyTimeoutMs: 0, integrityCheck: false });
  applyPendingMigrations(connection);
  const database = new SqliteDatabase(connection, ':memory:');
  const registry = new ProjectionRegistry();
  registry.register(new StreamSummariesProjection());
  extra.forEach((p) => registry.register(p));
  return { store: new EventStore(database, new InlineProjections(registry)), database };
}

const created = { type: 'thing.created', data: { name: 'a' } };
const renamed = { type: 'thing.renamed', data: { name: 'b' } };

const alice: Actor = { kind: 'user', id: 'idp#alice', name: 'Alice', via: 'api' };

describe('EventStore', () => {
  it('appends to a new stream and reads it back in order with positions and metadata', async () => {
    const { store } = memoryStore();
    // Appended as Alice: the store records her as the events' actor (issue 27).
    const result = await actingAs(alice, () =>
      store.append('thing-1', 'no_stream', [{ ...created, metadata: { actor: 'alice', correlationId: 'c-1' } }, renamed]),
    );
    expect(result.nextExpectedVersion).toBe(2);
    const events = await store.readStream('thing-1');
    expect(events.map((e) => [e.type, e.streamPosition, e.globalPosition])).toEqual([
      ['thing.created', 1, 1],
      ['thing.renamed', 2, 2],
    ]);
    expect(events[0].metadata).toEqual({ actor: 'alice', correlationId: 'c-1', by: alice });
    expect(events[1].metadata).toEqual({ by: alice });
    expect(events[0].data).toEqual({ name: 'a' });
    expect(await store.streamVersion('thing-1')).toBe(2);
  });

  it('refuses a stale expected version with a typed conflict and stores nothing of it', async () => {
    const { store } = memoryStore();
    await store.append('thing-1', 0, [created]);
    await expect(store.append('thing-1', 0, [renamed])).rejects.toBeInstanceOf(ExpectedVersionConflictError);
    await expect(store.append('thing-1', 'no_stream', [renamed])).rejects.toMatchObject({ actual: 1 });
    await expect(store.append('other', 'stream_exists', [renamed])).rejects.toBeInstanceOf(ExpectedVersionConflictError);
    expect(await store.readStream('thing-1')).toHaveLength(1);
    expect(await store.headPosition()).toBe(1);
  });

  it("accepts 'any' whatever the version", async () => {
    const { store } = memoryStore();
    await store.append('thing-1', 'any', [created]);
    await store.append('thing-1', 'any', [renamed]);
    expect(await store.streamVersion('thing-1')).toBe(2);
  });

  it.each([
    ['an empty stream id', '', 0, [created]],
    ['no events', 's', 0, []],
    ['a negative version', 's', -1, [created]],
    ['an event without type', 's', 0, [{ type: '', data: {} }]],
    // What a JavaScript caller could pass despite the types: the store must refuse it at run time.
    ['data that is not an object', 's', 0, [{ type: 't', data: 'x' as unknown as object }]],
  ])('rejects %s as invalid input', async (_case, streamId, version, events) => {
    const { store } = memoryStore();
    await expect(store.append(streamId, version, events as never)).rejects.toBeInstanceOf(InvalidAppendError);
  });

  it('commits appends of one tick together, each one atomic: a conflict or a failing projection spoils only its own', async () => {
    const failing: Projection = perEventProjection({
      name: 'failing',
      mode: 'inline',
      tables: [],
      eventTypes: ['poison'],
      apply: () => {
        throw new Error('projection broke');
      },
    });
    const { store, database } = memoryStore([failing]);
    const results = await Promise.allSettled([
      store.append('a', 'no_stream', [created]),
      store.append('b', 'no_stream', [created, { type: 'poison', data: {} }]),
      store.append('c', 5, [created]),
      store.append('d', 'no_stream', [created, renamed]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(await store.readStream('b')).toHaveLength(0);
    expect(await store.readStream('d')).toHaveLength(2);
    const summaries = database.connection.prepare('SELECT stream_id, event_count FROM stream_summaries ORDER BY stream_id').all();
    expect(summaries).toEqual([
      { stream_id: 'a', event_count: 1 },
      { stream_id: 'd', event_count: 2 },
    ]);
    expect(await store.headPosition()).toBe(3);
    expect(store.stats()).toEqual({ commits: 1, appends: 4 });
  });

  it('delivers committed events to a catch-up subscription once, in global order, with no gap between replay and live', async () => {
    const { store } = memoryStore();
    await store.append('s-1', 'no_stream', [created, renamed]);
    const received = firstValueFrom(store.subscribe(1).pipe(take(3), toArray()));
    await store.append('s-2', 'no_stream', [created]);
    await store.append('s-1', 2, [renamed]);
    const events = await received;
    expect(events.map((e) => e.globalPosition)).toEqual([2, 3, 4]);
  });

  it('follows one stream from a stream position: replay, then live, skipping other streams', async () => {
    const { store } = memoryStore();
    await store.append('s-1', 'no_stream', [created, renamed]);
    await store.append('s-2', 'no_stream', [created]);
    const received = firstValueFrom(store.subscribeToStream('s-1', 1).pipe(take(2), toArray()));
    await store.append('s-2', 1, [renamed]);
    await store.append('s-1', 2, [{ type: 'thing.deleted', data: {} }]);
    expect((await received).map((e) => [e.streamPosition, e.type])).toEqual([
      [2, 'thing.renamed'],
      [3, 'thing.deleted'],
    ]);
  });

  it('readStreams: per read, the first `limit` events of its streams after a position, in global order; reads in their order', async () => {
    const { store } = memoryStore();
    // Interleaved: a b c a b a at global positions 1..6.
    for (const streamId of ['a', 'b', 'c', 'a', 'b', 'a']) await store.append(streamId, 'any', [created]);
    const log = await store.readAll();
    const positions = (events: Array<{ globalPosition: number }>) => events.map((e) => e.globalPosition);

    const results = await store.readStreams([
      { streamIds: ['a', 'b'], after: 0, limit: 10 },
      { streamIds: ['b', 'a'], after: 1, limit: 2 }, // another limit: its own statement, same answer shape
      { streamIds: ['c'], after: 0, limit: 1 },
      { streamIds: ['a'], after: 0, limit: 1 }, // its limit does not cut the other reads' rows
      { streamIds: ['missing'], after: 0, limit: 10 },
      { streamIds: [], after: 0, limit: 10 },
      { streamIds: ['a', 'b', 'c'], after: 6, limit: 10 },
    ]);
    expect(results.map(positions)).toEqual([[1, 2, 4, 5, 6], [2, 4], [3], [1], [], [], []]);
    // The same events the log holds, data and metadata parsed.
    expect(results[0]).toEqual(log.filter((e) => e.streamId !== 'c'));
    expect(await store.readStreams([])).toEqual([]);
  });

  it('appends to several streams atomically: one stale version and none of the parts is stored', async () => {
    const { store } = memoryStore();
    await store.append('b', 'no_stream', [created]);
    await expect(
      store.appendMany([
        { streamId: 'a', expectedVersion: 'no_stream', events: [created] },
        { streamId: 'b', expectedVersion: 'no_stream', events: [created] },
      ]),
    ).rejects.toBeInstanceOf(ExpectedVersionConflictError);
    expect(await store.streamVersion('a')).toBe(0);
    const results = await store.appendMany([
      { streamId: 'a', expectedVersion: 'no_stream', events: [created] },
      { streamId: 'b', expectedVersion: 1, events: [renamed] },
    ]);
    expect(results.map((r) => [r.streamId, r.nextExpectedVersion])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    await expect(
      store.appendMany([
        { streamId: 'c', expectedVersion: 'any', events: [created] },
        { streamId: 'c', expectedVersion: 'any', events: [created] },
      ]),
    ).rejects.toBeInstanceOf(InvalidAppendError);
  });

  describe('a version conflict inside a group commit', () => {
    /** Counts inline applies: a group replayed with savepoints applies its events a second time. */
    function countingStore() {
      const applied: string[] = [];
      const counting: Projection = perEventProjection({
        name: 'counting',
        mode: 'inline',
        tables: [],
        *apply(event) {
          applied.push(event.streamId);
          yield* [];
        },
      });
      return { ...memoryStore([counting]), applied };
    }

    /**
     * Appends a, then what `middle` appends, then c, in one group: a and c commit, the middle one fails
     * with the version conflict this returns, not marked as found after a write.
     */
    async function conflictBetween(store: ReturnType<typeof memoryStore>['store'], middle: () => Promise<unknown>) {
      const results = await Promise.allSettled([store.append('a', 'no_stream', [created]), middle(), store.append('c', 'no_stream', [created])]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const conflict = (results[1] as PromiseRejectedResult).reason as ExpectedVersionConflictError;
      expect(conflict).toBeInstanceOf(ExpectedVersionConflictError);
      expect(conflict).not.toHaveProperty('afterWrite');
      return conflict;
    }

    it('found before anything of its append was written, fails that append alone and the group is written once', async () => {
      const { store, applied } = countingStore();
      await store.append('b', 'no_stream', [created]);
      applied.length = 0;
      await conflictBetween(store, () => store.append('b', 'no_stream', [renamed]));
      // No replay with savepoints: each committed event was applied exactly once.
      expect(applied).toEqual(['a', 'c']);
      expect(store.stats()).toEqual({ commits: 2, appends: 4 });
    });

    it('found after an earlier part of its appendMany wrote, rolls back that appendMany alone while the group commits', async () => {
      const { store, applied } = countingStore();
      await store.append('b', 'no_stream', [created]);
      const conflict = await conflictBetween(store, () =>
        store.appendMany([
          { streamId: 'x', expectedVersion: 'no_stream', events: [created] },
          { streamId: 'b', expectedVersion: 'no_stream', events: [renamed] },
        ]),
      );
      expect(conflict).toMatchObject({ streamId: 'b', expected: 'no_stream', actual: 1 });
      expect(await store.streamVersion('x')).toBe(0);
      expect(await store.readStream('x')).toEqual([]);
      expect([await store.streamVersion('a'), await store.streamVersion('b'), await store.streamVersion('c')]).toEqual([1, 1, 1]);
      // The committed appends' events reached committed$ in order, and the group is one commit.
      expect((await store.readAll()).map((e) => e.streamId)).toEqual(['b', 'a', 'c']);
      expect(store.stats()).toEqual({ commits: 2, appends: 4 });
      // The savepoint-free attempt stopped at b and was rolled back; the replay rolled back x's savepoint alone.
      expect(applied).toEqual(['b', 'a', 'x', 'a', 'x', 'c']);
    });

    it('found at the insert (another writer took the position after the version was read) rolls back the stream row it wrote', async () => {
      const { store, database } = memoryStore();
      // What a second writer leaves between our version read and our insert: an event at position 1
      // while the stream row still says the stream does not exist.
      database.connection
        .prepare(
          `INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata, recorded_at)
           VALUES ('other-writer', 'raced', 1, 'thing.created', '{}', '{}', '2020-01-01T00:00:00.000Z')`,
        )
        .run();
      await conflictBetween(store, () => store.append('raced', 'no_stream', [created]));
      const streamRows = database.connection.prepare('SELECT stream_id FROM streams ORDER BY stream_id').all();
      expect(streamRows).toEqual([{ stream_id: 'a' }, { stream_id: 'c' }]);
      expect((await store.readStream('raced')).map((e) => e.eventId)).toEqual(['other-writer']);
    });
  });

  it('flushes queued appends on shutdown and then refuses new ones', async () => {
    const { store } = memoryStore();
    const queued = store.append('s', 'no_stream', [created]);
    store.flushAndClose();
    await expect(queued).resolves.toMatchObject({ nextExpectedVersion: 1 });
    await expect(store.append('s', 1, [renamed])).rejects.toBeInstanceOf(AppendFailedError);
  });

  describe('acknowledged only once durable (issue 41: the WAL synced off the event loop)', () => {
    /** A store whose syncs the test lets end: fault injection on what the disk does, the rest real. */
    function heldSyncStore() {
      const { store, database } = memoryStore();
      const syncs: Array<{ end: () => void; fail: (error: Error) => void }> = [];
      database.durable = () => new Promise<void>((end, fail) => syncs.push({ end, fail }));
      return { store, syncs };
    }
    const turn = () => new Promise((resolve) => setImmediate(resolve));

    it('publishes and acknowledges a committed append only after its sync, and a catch-up started meanwhile does not read it', async () => {
      const { store, syncs } = heldSyncStore();
      const published: string[] = [];
      store.committed$.subscribe((event) => published.push(event.streamId));
      let acknowledged = false;
      const append = store.append('s', 'no_stream', [created]).then(() => (acknowledged = true));
      await turn();
      expect(syncs).toHaveLength(1); // committed, waiting for the disk
      expect(await store.streamVersion('s')).toBe(1);
      const caughtUp: string[] = [];
      const subscription = store.subscribe(0).subscribe((event) => caughtUp.push(event.type));
      expect([published, caughtUp, acknowledged]).toEqual([[], [], false]);
      syncs[0].end();
      await append;
      expect([published, caughtUp]).toEqual([['s'], ['thing.created']]); // once, live
      subscription.unsubscribe();
    });

    it('fails the appends whose sync failed, and refuses new ones until a restart', async () => {
      const { store, syncs } = heldSyncStore();
      const append = store.append('s', 'no_stream', [created]);
      await turn();
      const queued = store.append('q', 'no_stream', [created]); // asked before the failure, not committed yet
      syncs[0].fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
      await expect(append).rejects.toThrow(/could not be made durable \(EIO: i\/o error, fdatasync\); restart Switchboard/);
      await expect(queued).rejects.toBeInstanceOf(AppendFailedError);
      await turn();
      expect(syncs).toHaveLength(1); // nothing committed after the failure
      await expect(store.append('t', 'no_stream', [created])).rejects.toBeInstanceOf(AppendFailedError);
    });

    it('settles the groups that wait for a sync at shutdown, in order', async () => {
      const { store, syncs } = heldSyncStore();
      const published: number[] = [];
      store.committed$.subscribe((event) => published.push(event.globalPosition));
      const first = store.append('a', 'no_stream', [created]);
      await turn();
      const second = store.append('b', 'no_stream', [created]);
      store.flushAndClose();
      expect(syncs).toHaveLength(2);
      await expect(Promise.all([first, second])).resolves.toHaveLength(2);
      expect(published).toEqual([1, 2]);
    });
  });
});

import { count } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Subscription } from 'rxjs';
import type { ReadModelDatabase } from '../../src/database/read-model-database';
import type { EventStore } from '../../src/event-store/event-store';
import { ExpectedVersionConflictError, InvalidAppendError } from '../../src/event-store/event-store.errors';
import type { AppendResult, NewEvent, StoredEvent } from '../../src/event-store/event-store.types';
import type { PostgresEventStore, PostgresEventStoreOptions } from '../../src/event-store/postgres/postgres-event-store';
import { one, type Projection, perEventProjection } from '../../src/projections/projection';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { foldSummaries, readSummaries } from '../fixtures/stream-summary-fold';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(60_000);

const targets = eventStoreTargets();
const [[, openSqliteTarget], [, openPostgresTarget]] = targets;

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data });

/** Collects what a subscription delivers. */
function collect(store: EventStore, after = 0): { events: StoredEvent[]; errors: unknown[]; subscription: Subscription } {
  const events: StoredEvent[] = [];
  const errors: unknown[] = [];
  const subscription = store.subscribe(after).subscribe({ next: (e) => events.push(e), error: (e) => errors.push(e) });
  return { events, errors, subscription };
}

/** What the inline read model must hold for one stream, recomputed from its events (none: no row). */
async function expectSummaryOf(db: ReadModelDatabase, store: EventStore, streamId: string): Promise<void> {
  expect(await readSummaries(db, [streamId])).toEqual(foldSummaries(await store.readStream(streamId)));
}

/** The EventStore port's contract, one body on both adapters. */
describe.each(targets)('the event store on %s', (_name, openTarget) => {
  let target: EventStoreTarget;
  let store: EventStore;

  beforeAll(async () => {
    target = await openTarget();
    store = target.store;
  });

  afterAll(() => target?.close());

  it('appends, and reads back the same events by stream, globally, by version and head', async () => {
    const streamId = `agent-${randomUUID()}`;
    const head = await store.headPosition();
    const first = await store.append(streamId, 'no_stream', [
      event('AgentCreated', { name: 'a', nested: { list: [1, 'two'] } }),
      event('AgentRenamed', { name: 'b' }),
    ]);
    const second = await store.append(streamId, first.nextExpectedVersion, [
      { ...event('AgentArchived'), metadata: { actor: 'tester', correlationId: 'c-1' } },
    ]);

    expect(first.nextExpectedVersion).toBe(2);
    expect(second.nextExpectedVersion).toBe(3);
    const appended = [...first.events, ...second.events];
    expect(appended.map((e) => e.streamPosition)).toEqual([1, 2, 3]);
    expect(appended.map((e) => e.globalPosition)).toEqual([head + 1, head + 2, head + 3]);

    const read = await store.readStream(streamId);
    expect(read).toEqual(appended); // data and metadata as JSON, and the time to the millisecond, round-trip
    expect(await store.readStream(streamId, { fromVersion: 2, limit: 1 })).toEqual([appended[1]]);
    expect(await store.readAll({ after: head })).toEqual(appended);
    expect(await store.readAll({ after: head + 1, limit: 1 })).toEqual([appended[1]]);
    expect(await store.streamVersion(streamId)).toBe(3);
    expect(await store.streamVersion(`agent-${randomUUID()}`)).toBe(0);
    expect(await store.headPosition()).toBe(head + 3);
  });

  it('readStreams: per read, the first `limit` events of its streams after a position, in global order', async () => {
    const [a, b, c] = [`run-${randomUUID()}`, `run-${randomUUID()}`, `session-${randomUUID()}`];
    const head = await store.headPosition();
    // Interleaved: a b c a b a at head+1..head+6, with data and metadata to round-trip.
    for (const [i, streamId] of [a, b, c, a, b, a].entries()) {
      await store.append(streamId, 'any', [{ ...event('Noted', { i, text: 'it\'s "quoted"' }), metadata: { actor: 'tester' } }]);
    }
    const log = await store.readAll({ after: head });
    const positions = (events: StoredEvent[]) => events.map((e) => e.globalPosition - head);

    const results = await store.readStreams([
      { streamIds: [a, b], after: head, limit: 10 },
      { streamIds: [b, a], after: head + 1, limit: 2 },
      { streamIds: [c], after: head, limit: 1 },
      { streamIds: [a], after: head, limit: 1 }, // its limit does not cut the other reads' rows
      { streamIds: [`run-${randomUUID()}`], after: 0, limit: 10 },
      { streamIds: [], after: 0, limit: 10 },
      { streamIds: [a, b, c], after: head + 6, limit: 10 },
    ]);
    expect(results.map(positions)).toEqual([[1, 2, 4, 5, 6], [2, 4], [3], [1], [], [], []]);
    // The same events readAll gives: data, metadata and timestamps as the other reads map them.
    expect(results[0]).toEqual(log.filter((e) => e.streamId !== c));
    expect(await store.readStreams([])).toEqual([]);
  });

  it('expected versions: exact, no_stream, stream_exists and any, each refusal the same error, writing nothing', async () => {
    const streamId = `run-${randomUUID()}`;
    const missing = `run-${randomUUID()}`;
    await store.append(streamId, 0, [event('RunStarted')]);
    const head = await store.headPosition();

    const refusals = await Promise.allSettled([
      store.append(streamId, 0, [event('Stale')]),
      store.append(streamId, 2, [event('Ahead')]),
      store.append(streamId, 'no_stream', [event('Again')]),
      store.append(missing, 'stream_exists', [event('Orphan')]),
    ]);
    for (const refusal of refusals) {
      expect(refusal.status).toBe('rejected');
      const error = (refusal as PromiseRejectedResult).reason as ExpectedVersionConflictError;
      expect(error).toBeInstanceOf(ExpectedVersionConflictError);
      expect(error.code).toBe('expected_version_conflict');
    }
    expect((refusals[0] as PromiseRejectedResult).reason).toMatchObject({ streamId, expected: 0, actual: 1 });
    expect((refusals[2] as PromiseRejectedResult).reason).toMatchObject({ streamId, expected: 'no_stream', actual: 1 });
    expect((refusals[3] as PromiseRejectedResult).reason).toMatchObject({ streamId: missing, expected: 'stream_exists', actual: 0 });
    expect(await store.headPosition()).toBe(head);
    expect(await store.readStream(streamId)).toHaveLength(1);

    await expect(store.append(streamId, 1, [event('RunStepped')])).resolves.toMatchObject({ nextExpectedVersion: 2 });
    await expect(store.append(streamId, 'stream_exists', [event('RunStepped')])).resolves.toMatchObject({ nextExpectedVersion: 3 });
    await expect(store.append(streamId, 'any', [event('RunStepped')])).resolves.toMatchObject({ nextExpectedVersion: 4 });
    await expect(store.append(`run-${randomUUID()}`, 'any', [event('RunStarted')])).resolves.toMatchObject({ nextExpectedVersion: 1 });
    await expect(store.append(streamId, 'x' as never, [event('Bad')])).rejects.toBeInstanceOf(InvalidAppendError);
  });

  it('appendMany is all or nothing; in the same group the other appends still commit', async () => {
    const [a, b, c] = [`agent-${randomUUID()}`, `agent-${randomUUID()}`, `agent-${randomUUID()}`];
    await store.append(b, 0, [event('Exists')]);
    const usedId = randomUUID();
    await store.append(c, 0, [{ ...event('Taken'), eventId: usedId }]);
    const head = await store.headPosition();
    const commitsBefore = store.stats().commits;

    const [conflicting, duplicateId, alone, whole] = await Promise.allSettled([
      store.appendMany([
        { streamId: a, expectedVersion: 0, events: [event('Imported')] },
        { streamId: b, expectedVersion: 0, events: [event('Imported')] }, // b is at 1
      ]),
      // Its second part reuses an event id: a database error, so the whole request is rolled back.
      store.appendMany([
        { streamId: a, expectedVersion: 0, events: [event('Imported')] },
        { streamId: c, expectedVersion: 1, events: [{ ...event('Imported'), eventId: usedId }] },
      ]),
      store.append(c, 1, [event('Alone')]),
      store.appendMany([
        { streamId: a, expectedVersion: 'no_stream', events: [event('Imported'), event('Tagged')] },
        { streamId: b, expectedVersion: 1, events: [event('Imported')] },
      ]),
    ]);

    expect(conflicting).toMatchObject({ status: 'rejected', reason: expect.any(ExpectedVersionConflictError) });
    expect(duplicateId).toMatchObject({ status: 'rejected', reason: expect.any(InvalidAppendError) });
    expect(alone).toMatchObject({ status: 'fulfilled', value: { nextExpectedVersion: 2 } });
    expect(whole).toMatchObject({
      status: 'fulfilled',
      value: [
        { streamId: a, nextExpectedVersion: 2 },
        { streamId: b, nextExpectedVersion: 2 },
      ],
    });
    expect(store.stats().commits - commitsBefore).toBe(1); // the savepoint replay stays inside the one commit

    const written = await store.readAll({ after: head });
    expect(written.map((e) => [e.streamId, e.type])).toEqual(
      expect.arrayContaining([
        [c, 'Alone'],
        [a, 'Imported'],
        [a, 'Tagged'],
        [b, 'Imported'],
      ]),
    );
    expect(written).toHaveLength(4);
    expect(written.map((e) => e.globalPosition)).toEqual([...written.map((e) => e.globalPosition)].sort((x, y) => x - y));
    expect(await store.streamVersion(a)).toBe(2);
    expect(await store.streamVersion(b)).toBe(2);
    expect(await store.streamVersion(c)).toBe(2);
    for (const stream of [a, b, c]) await expectSummaryOf(target.db, store, stream);
  });

  it('stores quotes, backslashes, dollar quotes and any Unicode as given, beside other appends of its group', async () => {
    const streamId = `agent-'; DROP TABLE events; --\\ $$ ${randomUUID()}`;
    const data = { quote: "it's", backslash: 'C:\\temp\\n', dollar: '$$ $1 $tag$', emoji: '🚀 ü 漢字', nested: { json: '{"a":[1,2]}' } };
    const before = store.stats().commits;
    const [stored, beside] = await Promise.allSettled([
      store.append(streamId, 'no_stream', [{ type: "Type'With\\Quote", data, metadata: { actor: "o'brien" } }]),
      store.append(`agent-${randomUUID()}`, 'no_stream', [event('Plain')]),
    ]);
    expect(store.stats().commits - before).toBe(1);
    expect([stored.status, beside.status]).toEqual(['fulfilled', 'fulfilled']);
    const [read] = await store.readStream(streamId);
    expect(read).toMatchObject({ streamId, type: "Type'With\\Quote", data, metadata: { actor: "o'brien" } });
    expect(await store.streamVersion(streamId)).toBe(1);
    await expectSummaryOf(target.db, store, streamId);
  });

  it('group commit: appends made in one turn of the event loop share one transaction, recorded on commits$', async () => {
    const records: Array<{ appends: number; refused: number; committed: boolean }> = [];
    const subscription = store.commits$.subscribe(({ appends, refused, committed }) => records.push({ appends, refused, committed }));
    const before = store.stats();
    try {
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => store.append(`session-${randomUUID()}`, 0, [event('SessionStarted', { i })])),
      );
      const after = store.stats();
      expect(after.appends - before.appends).toBe(200);
      expect(after.commits - before.commits).toBe(1);
      expect(records).toEqual([{ appends: 200, refused: 0, committed: true }]);
      const positions = results.map((r) => r.events[0].globalPosition);
      expect(positions).toEqual([...positions].sort((x, y) => x - y)); // queued order is log order
      expect(new Set(positions).size).toBe(200);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('records on commits$ how many appends of a committed group it refused: a version conflict writes nothing', async () => {
    const streamId = `session-${randomUUID()}`;
    await store.append(streamId, 0, [event('SessionStarted')]);
    const records: Array<{ appends: number; refused: number; committed: boolean }> = [];
    const subscription = store.commits$.subscribe(({ appends, refused, committed }) => records.push({ appends, refused, committed }));
    try {
      const [stale, fresh] = await Promise.allSettled([store.append(streamId, 0, [event('Stale')]), store.append(streamId, 1, [event('Fresh')])]);
      expect(stale).toMatchObject({ status: 'rejected', reason: expect.any(ExpectedVersionConflictError) });
      expect(fresh.status).toBe('fulfilled');
      expect(records).toEqual([{ appends: 2, refused: 1, committed: true }]);
    } finally {
      subscription.unsubscribe();
    }
  });

  it("committed$ has published an append's events, once each and in global order, by the time the append resolves", async () => {
    const from = await store.headPosition();
    const published: StoredEvent[] = [];
    const subscription = store.committed$.subscribe((e) => published.push(e));
    try {
      const unpublishedAtResolve: string[] = [];
      const check = (result: AppendResult) =>
        result.events.filter((e) => !published.some((p) => p.eventId === e.eventId)).forEach((e) => unpublishedAtResolve.push(e.eventId));
      for (let round = 0; round < 5; round++) {
        await store.append(`session-${randomUUID()}`, 0, [event('Alone', { round })]).then(check);
        await Promise.all(Array.from({ length: 5 }, (_, i) => store.append(`session-${randomUUID()}`, 0, [event('Grouped', { round, i })]).then(check)));
        await store
          .appendMany([
            { streamId: `agent-${randomUUID()}`, expectedVersion: 0, events: [event('ManyA')] },
            { streamId: `agent-${randomUUID()}`, expectedVersion: 0, events: [event('ManyB'), event('ManyC')] },
          ])
          .then((results) => results.forEach(check));
      }
      expect(unpublishedAtResolve).toEqual([]);
      expect(published).toEqual(await store.readAll({ after: from }));
      expect(published).toHaveLength(5 * (1 + 5 + 3));
    } finally {
      subscription.unsubscribe();
    }
  });

  it('subscribe replays from a position, then delivers what is appended (on PostgreSQL by another instance too), once each and in order', async () => {
    const other = target.tailsOtherStores ? (await target.openAnother()).store : store;
    const streamId = `session-${randomUUID()}`;
    await store.append(streamId, 0, [event('One'), event('Two')]);
    const from = (await store.headPosition()) - 1; // replay starts after One
    const { events, errors, subscription } = collect(store, from);
    try {
      await waitUntil(() => events.length === 1, 'the replay');
      expect(events.map((e) => e.type)).toEqual(['Two']);
      await other.append(streamId, 2, [event('Three')]);
      await store.append(streamId, 3, [event('Four'), event('Five')]);
      await waitUntil(() => events.length === 4, 'the live events');
      expect(events.map((e) => e.type)).toEqual(['Two', 'Three', 'Four', 'Five']);
      expect(events).toEqual(await store.readAll({ after: from }));
      expect(errors).toEqual([]);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('subscribeToStream replays one stream from a stream position, then follows it live, skipping other streams', async () => {
    const streamId = `session-${randomUUID()}`;
    await store.append(streamId, 0, [event('One'), event('Two'), event('Three')]);
    const seen: StoredEvent[] = [];
    const subscription = store.subscribeToStream(streamId, 1).subscribe((e) => seen.push(e));
    try {
      await waitUntil(() => seen.length === 2, 'the replay after stream position 1');
      await store.append(`session-${randomUUID()}`, 0, [event('Elsewhere')]);
      await store.append(streamId, 3, [event('Four')]);
      await waitUntil(() => seen.length === 3, 'the live event');
      expect(seen.map((e) => [e.type, e.streamPosition])).toEqual([
        ['Two', 2],
        ['Three', 3],
        ['Four', 4],
      ]);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('close() commits what is queued, then refuses appends', async () => {
    const closing = await target.openAnother();
    const streamId = `agent-${randomUUID()}`;
    const queued = closing.store.append(streamId, 0, [event('Queued')]);
    await closing.close();
    await expect(queued).resolves.toMatchObject({ nextExpectedVersion: 1 });
    await expect(closing.store.append(streamId, 1, [event('Late')])).rejects.toMatchObject({ code: 'append_failed' });
    expect(await store.streamVersion(streamId)).toBe(1);
  });

  describe('appends issued within one tick', () => {
    let own: EventStoreTarget;
    let outside: ReadModelDatabase;
    /** Events committed as a reader outside the store sees them, each time the probe projection ran. */
    const probeSaw: Array<{ eventId: string; committedEvents: number }> = [];
    const committedEvents = () => outside.orm.select({ n: count() }).from(outside.tables.events);

    beforeAll(async () => {
      // An inline projection that peeks at what is committed: it runs inside the group's transaction.
      const probe = (): Projection =>
        perEventProjection({
          name: 'probe',
          mode: 'inline',
          tables: [],
          *apply(e) {
            const row = yield* one(committedEvents());
            probeSaw.push({ eventId: e.eventId, committedEvents: Number(row?.n) });
            if (e.type === 'Poison') throw new Error('probe refuses Poison');
          },
        });
      own = await openTarget({ projections: () => [probe()] });
      outside = own.db;
    });

    afterAll(() => own?.close());

    it('share one transaction, yet each append is all-or-nothing when others in the group fail', async () => {
      const { store: s } = own;
      await s.append('plain-1', 0, [event('P'), event('P')]);
      const [{ n: committedBefore }] = await committedEvents();
      const head = await s.headPosition();
      const commitsBefore = s.stats().commits;
      probeSaw.length = 0; // only the group below
      const published: StoredEvent[] = [];
      const sub = s.committed$.subscribe((e) => published.push(e));

      const ev = (type: string, eventId: string = randomUUID()): NewEvent => ({ eventId, type, data: { type } });
      const a = [ev('A'), ev('A')];
      const countAtSettle: Array<PromiseLike<Array<{ n: number }>>> = [];
      // The count is taken the moment the append settles (on SQLite it runs right there).
      const seeSettle = <T>(p: Promise<T>) => p.finally(() => countAtSettle.push(committedEvents()));

      // All issued synchronously, in this order; none is awaited before the last one is queued.
      const ok1 = seeSettle(s.append('group-a', 'no_stream', a));
      const staleVersion = seeSettle(s.append('plain-1', 0, [ev('X')]));
      const ok2 = seeSettle(s.append('group-b', 0, [ev('B')]));
      // Fails on its third insert (the id is one group-a just wrote in the same transaction): two rows to undo.
      const duplicateId = seeSettle(s.append('group-c', 0, [ev('C'), ev('C'), ev('C', a[0].eventId)]));
      // Fails in the inline projections after its first event was fully written and projected.
      const poisoned = seeSettle(s.append('group-d', 0, [ev('D'), ev('Poison')]));
      const ok3 = seeSettle(s.append('plain-1', 2, [ev('Y')]));
      // group-b moved to version 1 earlier in this very transaction.
      const lostRace = seeSettle(s.append('group-b', 0, [ev('B2')]));
      const many = Array.from({ length: 50 }, (_, i) => seeSettle(s.append(`many-${i}`, 'no_stream', [ev('M')])));

      const results = await Promise.allSettled([ok1, staleVersion, ok2, duplicateId, poisoned, ok3, lostRace, ...many]);
      sub.unsubscribe();
      const [r1, rStale, r2, rDup, rPoison, r3, rLost] = results;

      expect(results.map((r) => r.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
        'rejected',
        'rejected',
        'fulfilled',
        'rejected',
        ...many.map(() => 'fulfilled'),
      ]);
      expect((rStale as PromiseRejectedResult).reason).toBeInstanceOf(ExpectedVersionConflictError);
      expect((rStale as PromiseRejectedResult).reason).toMatchObject({ expected: 0, actual: 2 });
      expect((rLost as PromiseRejectedResult).reason).toBeInstanceOf(ExpectedVersionConflictError);
      expect((rLost as PromiseRejectedResult).reason).toMatchObject({ expected: 0, actual: 1 });
      expect((rDup as PromiseRejectedResult).reason).toBeInstanceOf(InvalidAppendError);
      expect((rPoison as PromiseRejectedResult).reason).toEqual(new Error('probe refuses Poison'));

      // One transaction: while any event of the group was being applied, none of the group was committed.
      expect(s.stats().commits - commitsBefore).toBe(1);
      expect(probeSaw.length).toBeGreaterThan(0);
      expect(new Set(probeSaw.map((p) => p.committedEvents))).toEqual(new Set([committedBefore]));
      // ... and nothing settled before all of it was committed.
      const stored = 2 + 1 + 1 + many.length;
      expect((await Promise.all(countAtSettle)).map(([row]) => row.n)).toEqual(results.map(() => committedBefore + stored));

      // The successful appends are whole, at the positions they were acknowledged with.
      const acked = [r1, r2, r3, ...results.slice(7)].map((r) => (r as PromiseFulfilledResult<AppendResult>).value);
      expect(await s.readStream('group-a')).toEqual(acked[0].events);
      expect(await s.readStream('group-b')).toEqual(acked[1].events);
      expect((await s.readStream('plain-1')).slice(2)).toEqual(acked[2].events);
      expect(acked[2].events[0].streamPosition).toBe(3);
      const ackedEvents = acked.flatMap((r) => r.events);
      expect(await s.readAll({ after: head, limit: 1000 })).toEqual([...ackedEvents].sort((x, y) => x.globalPosition - y.globalPosition));
      // Published once each, in global order, only what committed.
      expect(published).toEqual(await s.readAll({ after: head, limit: 1000 }));

      // The failed appends left nothing: no events, no stream row, no read-model row, version unchanged.
      for (const failed of ['group-c', 'group-d']) {
        expect({
          stream: failed,
          version: await s.streamVersion(failed),
          events: await s.readStream(failed),
          summary: await readSummaries(outside, [failed]),
        }).toEqual({
          stream: failed,
          version: 0,
          events: [],
          summary: [],
        });
      }
      expect(await s.streamVersion('plain-1')).toBe(3);
      expect(await s.streamVersion('group-b')).toBe(1);
      for (const stream of ['group-a', 'group-b', 'plain-1', 'many-0', 'many-49']) await expectSummaryOf(outside, s, stream);
      const ids = (await s.readAll({ after: 0, limit: 1000 })).map((e) => e.eventId);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
});

describe('SQLite adapter', () => {
  it('a group whose transaction SQLite aborts (disk full) stores nothing and fails every append', async () => {
    const target = await openSqliteTarget();
    try {
      if (target.adapter.dialect !== 'sqlite') throw new Error('not SQLite');
      const { store, database } = target.adapter;
      await store.append('pre', 0, [{ type: 'P', data: {} }]);
      const pages = database.connection.pragma('page_count', { simple: true }) as number;
      database.connection.pragma(`max_page_count = ${pages + 3}`);
      const results = await Promise.allSettled([
        store.append('a', 0, [{ type: 'A', data: {} }]),
        store.append('b', 0, [{ type: 'B', data: { big: 'x'.repeat(200_000) } }]),
        store.append('c', 0, [{ type: 'C', data: {} }]),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect((await store.readAll()).map((e) => e.streamId)).toEqual(['pre']);
      expect(await store.streamVersion('c')).toBe(0);
    } finally {
      await target.close();
    }
  });
});

describe('PostgreSQL adapter: instances on one database (LISTEN/NOTIFY, the poll, the append lock)', () => {
  let target: EventStoreTarget;
  let url: string;
  let store: PostgresEventStore;
  const opened: PostgresEventStore[] = [];

  /** Another instance with options of its own; closed after the file. */
  const open = async (options?: Omit<PostgresEventStoreOptions, 'connectionString'>) => {
    const s = await openPostgresEventStore(url, options);
    opened.push(s);
    return s;
  };

  beforeAll(async () => {
    target = await openPostgresTarget();
    if (target.adapter.dialect !== 'postgres') throw new Error('not PostgreSQL');
    ({ url, store } = target.adapter);
  });

  afterAll(async () => {
    for (const s of opened) await s.close();
    await target?.close();
  });

  it('a NUL that jsonb refuses fails only its own append; the others of its group commit', async () => {
    const fine = `agent-${randomUUID()}`;
    const before = store.stats().commits;
    const [stored, refused] = await Promise.allSettled([
      store.append(fine, 'no_stream', [event('Fine')]),
      store.append(`agent-${randomUUID()}`, 'no_stream', [event('Nul', { text: 'a\u0000b' })]),
    ]);
    expect(store.stats().commits - before).toBe(1);
    expect(refused).toMatchObject({ status: 'rejected', reason: expect.any(InvalidAppendError) });
    expect(stored.status).toBe('fulfilled');
    expect(await store.streamVersion(fine)).toBe(1);
  });

  it("NOTIFY alone wakes another instance: its subscribe and subscribeToStream deliver the first instance's appends once each, in order", async () => {
    const writer = await open();
    const streamId = `session-${randomUUID()}`;
    await writer.append(streamId, 0, [event('One'), event('Two')]);
    const from = (await writer.headPosition()) - 1; // replay starts after One
    const reader = await open({ pollIntervalMs: 60_000 }); // only NOTIFY can wake it in time
    const { events, errors, subscription } = collect(reader, from);
    const inStream: StoredEvent[] = [];
    const streamSubscription = reader.subscribeToStream(streamId, 1).subscribe((e) => inStream.push(e));
    try {
      await waitUntil(() => events.length === 1 && inStream.length === 1, 'the replay');
      expect(events.map((e) => e.type)).toEqual(['Two']);
      await writer.append(streamId, 2, [event('Three')]);
      await writer.append(`session-${randomUUID()}`, 0, [event('Elsewhere')]);
      await writer.append(streamId, 3, [event('Four'), event('Five')]);
      await waitUntil(() => events.length === 5 && inStream.length === 4, 'the live events');
      expect(events.map((e) => e.type)).toEqual(['Two', 'Three', 'Elsewhere', 'Four', 'Five']);
      expect(events).toEqual(await store.readAll({ after: from }));
      expect(inStream.map((e) => [e.type, e.streamPosition])).toEqual([
        ['Two', 2],
        ['Three', 3],
        ['Four', 4],
        ['Five', 5],
      ]);
      expect(errors).toEqual([]);
    } finally {
      subscription.unsubscribe();
      streamSubscription.unsubscribe();
    }
  });

  it('a lost LISTEN connection loses no event: the subscriber reconnects and reads on from the log', async () => {
    const reader = await open({ pollIntervalMs: 200 });
    const from = await store.headPosition();
    const { events, errors, subscription } = collect(reader, from);
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      await store.append(`session-${randomUUID()}`, 0, [event('BeforeCut')]);
      await waitUntil(() => events.length === 1, 'the first event');
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
      );
      expect(rowCount).toBeGreaterThan(0);
      // Appended while the reader has no LISTEN connection: its notification reaches nobody.
      await store.append(`session-${randomUUID()}`, 0, [event('DuringCut')]);
      await store.append(`session-${randomUUID()}`, 0, [event('AfterCut')]);
      await waitUntil(() => events.length === 3, 'the events appended around the cut');
      expect(events.map((e) => e.type)).toEqual(['BeforeCut', 'DuringCut', 'AfterCut']);
      expect(errors).toEqual([]);
    } finally {
      subscription.unsubscribe();
      await admin.end();
    }
  });

  describe("committed$: one tail per store, every instance's events", () => {
    it('carries what another instance appends, in global order and exactly once, interleaved with its own', async () => {
      const a = await open({ pollIntervalMs: 60_000 }); // NOTIFY alone must wake it in time
      const b = await open({ pollIntervalMs: 60_000 });
      await Promise.all([a.start(), b.start()]);
      const from = await store.headPosition();
      const seenByA: StoredEvent[] = [];
      const seenByB: StoredEvent[] = [];
      const subscriptions = [a.committed$.subscribe((e) => seenByA.push(e)), b.committed$.subscribe((e) => seenByB.push(e))];
      try {
        const streams = [`run-${randomUUID()}`, `run-${randomUUID()}`];
        // Both instances append at once, each to its own stream and to a shared one (expected version any).
        const shared = `agent-${randomUUID()}`;
        await Promise.all(
          Array.from({ length: 40 }, (_, i) => {
            const [writer, own] = i % 2 === 0 ? [a, streams[0]] : [b, streams[1]];
            return Promise.all([writer.append(own, 'any', [event('Own', { i })]), writer.append(shared, 'any', [event('Shared', { i })])]);
          }),
        );
        const log = await store.readAll({ after: from });
        expect(log).toHaveLength(80);
        await waitUntil(() => seenByA.length >= 80 && seenByB.length >= 80, 'both tails to reach the head');
        // A duplicate would come with a later read (a NOTIFY, the poll): give one the time to arrive.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(seenByA).toEqual(log);
        expect(seenByB).toEqual(log);
      } finally {
        subscriptions.forEach((subscription) => subscription.unsubscribe());
      }
    });

    it("an append resolves only once committed$ has published its events, also when another instance's append came between", async () => {
      const a = await open({ pollIntervalMs: 60_000 });
      const b = await open({ pollIntervalMs: 60_000 });
      await Promise.all([a.start(), b.start()]);
      const published = new Set<string>();
      const subscription = a.committed$.subscribe((e) => published.add(e.eventId));
      try {
        const unpublishedAtResolve: string[] = [];
        const check = (result: { events: StoredEvent[] }) =>
          result.events.filter((e) => !published.has(e.eventId)).forEach((e) => unpublishedAtResolve.push(e.eventId));
        for (let round = 0; round < 10; round++) {
          // B's append lands between A's: A's next group does not follow its tail, so the tail reads the log first.
          await b.append(`session-${randomUUID()}`, 0, [event('ByB', { round })]);
          await Promise.all(Array.from({ length: 5 }, (_, i) => a.append(`session-${randomUUID()}`, 0, [event('ByA', { round, i })]).then(check)));
          await a
            .appendMany([
              { streamId: `agent-${randomUUID()}`, expectedVersion: 0, events: [event('ManyA')] },
              { streamId: `agent-${randomUUID()}`, expectedVersion: 0, events: [event('ManyB'), event('ManyC')] },
            ])
            .then((results) => results.forEach(check));
        }
        expect(unpublishedAtResolve).toEqual([]);
        // B's events too: A's tail published each before A's next group, which could only follow it.
        expect(published.size).toBe(10 * (1 + 5 + 3));
      } finally {
        subscription.unsubscribe();
      }
    });

    it('appends resolve, and close() ends, while the poll reads the log all the time (a read may publish before the commit answers)', async () => {
      const busy = await open({ pollIntervalMs: 1 });
      await busy.start();
      const from = await busy.headPosition();
      const seen: StoredEvent[] = [];
      const subscription = busy.committed$.subscribe((e) => seen.push(e));
      try {
        const streamId = `session-${randomUUID()}`;
        for (let i = 0; i < 1000; i++) await busy.append(streamId, i, [event('Polled', { i })]);
        await Promise.all(Array.from({ length: 50 }, (_, i) => busy.append(`session-${randomUUID()}`, 0, [event('Burst', { i })])));
        expect(seen).toEqual(await busy.readAll({ after: from, limit: 2000 }));
      } finally {
        subscription.unsubscribe();
      }
      await busy.close();
    });
  });

  it('migrate() is idempotent and safe when several instances start at once', async () => {
    const admin = new Client({ connectionString: url });
    await admin.connect();
    const name = `migrate_${randomUUID().replaceAll('-', '')}`;
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    const fresh = url.replace(/\/[^/]+$/, `/${name}`);
    const instances = await Promise.all([openPostgresEventStore(fresh), openPostgresEventStore(fresh), openPostgresEventStore(fresh)]);
    try {
      await instances[0].migrate();
      await expect(instances[1].append('agent-1', 'no_stream', [event('AgentCreated')])).resolves.toMatchObject({ nextExpectedVersion: 1 });
      expect(await instances[2].readStream('agent-1')).toHaveLength(1);
    } finally {
      for (const instance of instances) await instance.close();
    }
  });
});

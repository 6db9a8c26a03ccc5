import { randomUUID } from 'node:crypto';
import { Client, DatabaseError, type ClientBase } from 'pg';
import { StreamSummariesPgProjection } from '../../src/event-log/projections/stream-summaries.pg-projection';
import type { NewEvent, StoredEvent } from '../../src/event-store/event-store.types';
import type { PgProjection } from '../../src/event-store/postgres/pg-projection';
import type { PostgresEventStore, PostgresEventStoreOptions } from '../../src/event-store/postgres/postgres-event-store';
import { PgAsyncProjectionRunner, type PgAsyncProjectionRunnerOptions } from '../../src/projections/pg-async-projection-runner';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(120_000);

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data });

interface SummaryRow {
  stream_id: string;
  category: string;
  event_count: number;
  last_event_type: string;
  last_global_position: number;
  first_recorded_at: string;
  last_recorded_at: string;
}

/** The read model as it should be: a plain fold of the log, written apart from the projection's own code. */
function foldSummaries(log: readonly StoredEvent[]): SummaryRow[] {
  const rows = new Map<string, SummaryRow>();
  for (const e of log) {
    const row = rows.get(e.streamId);
    if (row) {
      Object.assign(row, {
        event_count: row.event_count + 1,
        last_event_type: e.type,
        last_global_position: e.globalPosition,
        last_recorded_at: e.recordedAt,
      });
    } else {
      rows.set(e.streamId, {
        stream_id: e.streamId,
        category: e.streamId.slice(0, e.streamId.indexOf('-')),
        event_count: 1,
        last_event_type: e.type,
        last_global_position: e.globalPosition,
        first_recorded_at: e.recordedAt,
        last_recorded_at: e.recordedAt,
      });
    }
  }
  return [...rows.values()].sort((a, b) => (a.stream_id < b.stream_id ? -1 : 1));
}

/** Every event of the log, in global order (page by page). */
async function wholeLog(store: PostgresEventStore, upTo = Number.MAX_SAFE_INTEGER): Promise<StoredEvent[]> {
  const log: StoredEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: log.at(-1)?.globalPosition ?? 0, limit: 500 });
    log.push(...page.filter((e) => e.globalPosition <= upTo));
    if (page.length < 500) return log;
  }
}

/**
 * The failing read model: the summaries' upsert goes through first, then a throw for any batch with a
 * `Poison` event while `poisoned` is set, so a retry that did not roll the upsert back would count twice.
 */
class PoisonableSummaries implements PgProjection {
  readonly name = 'stream-summaries';
  readonly tables = ['stream_summaries'];
  poisoned = true;
  attempts = 0;
  private readonly inner = new StreamSummariesPgProjection();

  async apply(client: ClientBase, events: readonly StoredEvent[]): Promise<void> {
    await this.inner.apply(client, events);
    if (this.poisoned && events.some((e) => e.type === 'Poison')) {
      this.attempts += 1;
      throw new Error('read model disk full');
    }
  }
}

describe('Projections on the PostgreSQL store (real server)', () => {
  let server: PostgresServer;
  const opened: PostgresEventStore[] = [];
  const runners: PgAsyncProjectionRunner[] = [];

  const open = async (url: string, options?: Omit<PostgresEventStoreOptions, 'connectionString'>) => {
    const store = await openPostgresEventStore(url, { pollIntervalMs: 200, ...options });
    opened.push(store);
    return store;
  };
  const runner = (store: PostgresEventStore, projections: PgProjection[], options?: PgAsyncProjectionRunnerOptions) => {
    const r = new PgAsyncProjectionRunner(store, projections, options);
    runners.push(r);
    return r;
  };

  /** The stream_summaries table as the fold's rows (timestamps as ISO strings, bigints as numbers). */
  const readModel = async (url: string): Promise<SummaryRow[]> => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<
        Omit<SummaryRow, 'first_recorded_at' | 'last_recorded_at' | 'last_global_position'> & {
          last_global_position: string;
          first_recorded_at: Date;
          last_recorded_at: Date;
        }
      >('SELECT * FROM stream_summaries ORDER BY stream_id COLLATE "C"');
      return rows.map((row) => ({
        ...row,
        last_global_position: Number(row.last_global_position),
        first_recorded_at: row.first_recorded_at.toISOString(),
        last_recorded_at: row.last_recorded_at.toISOString(),
      }));
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    server = await startPostgresServer();
  });

  afterAll(async () => {
    for (const r of runners) await r.stop();
    for (const s of opened) await s.close();
    server?.stop();
  });

  describe('inline', () => {
    let url: string;
    let stores: PostgresEventStore[];

    beforeAll(async () => {
      url = await server.createDatabase();
      // Three instances, each with the inline projection registered, appending at once.
      stores = await Promise.all([0, 1, 2].map(() => open(url, { inlineProjections: [new StreamSummariesPgProjection()] })));
    });

    it('keeps the read model equal to a fold of the log after many concurrent appends on three pools', async () => {
      const streams = Array.from({ length: 12 }, (_, i) => `${['agent', 'run', 'session'][i % 3]}-${randomUUID()}`);
      const appends: Promise<unknown>[] = [];
      let refusedExpected = 0;
      for (let i = 0; i < 300; i += 1) {
        const store = stores[i % 3];
        const a = streams[i % streams.length];
        const b = streams[(i * 7 + 5) % streams.length];
        if (i % 10 === 0 && a !== b) {
          appends.push(
            store.appendMany([
              { streamId: a, expectedVersion: 'any', events: [event('Paired', { i })] },
              { streamId: b, expectedVersion: 'any', events: [event('Paired', { i }), event('PairedTwice', { i })] },
            ]),
          );
        } else if (i % 17 === 0) {
          // A stale expected version: refused, and its projection must not have run.
          refusedExpected += 1;
          appends.push(
            store.append(a, 10_000, [event('Stale', { i })]).then(
              () => Promise.reject(new Error('accepted')),
              () => 'refused',
            ),
          );
        } else {
          appends.push(store.append(a, 'any', [event(`Type${i % 5}`, { i })]));
        }
      }
      const settled = await Promise.all(appends);
      expect(settled.filter((outcome) => outcome === 'refused')).toHaveLength(refusedExpected);

      const log = await wholeLog(stores[0]);
      expect(log.some((e) => e.type === 'Stale')).toBe(false);
      const model = await readModel(url);
      expect(model).toEqual(foldSummaries(log));
      // The count column is the proof no event was applied twice: each stream's count is its version.
      for (const row of model) expect(row.event_count).toBe(await stores[1].streamVersion(row.stream_id));
      // Groups did form (else this proves nothing about the group path).
      expect(stores.some((s) => s.stats().appends > s.stats().commits)).toBe(true);
    });

    it('a rebuild (tables emptied, checkpoint 0) replays the log into the same read model', async () => {
      const live = await readModel(url);
      expect(live.length).toBeGreaterThan(0);
      const rebuilder = runner(stores[0], [new StreamSummariesPgProjection()], { batchSize: 64 });
      const head = await stores[0].headPosition();
      await rebuilder.rebuild('stream-summaries');
      await waitUntil(() => rebuilder.position('stream-summaries') === head, 'the rebuild to reach the head', 20_000);
      expect(await readModel(url)).toEqual(live);
      await rebuilder.stop();
    });

    it('a throwing inline projection rolls back its own append only: the caller gets its error, nothing of it is written', async () => {
      const refusing: PgProjection = {
        name: 'refusing',
        tables: [],
        eventTypes: ['Refused', 'DivideByZero'],
        async apply(client, events) {
          if (events.some((e) => e.type === 'Refused')) throw new Error('projection refuses');
          await client.query('SELECT 1 / 0'); // a statement that fails: the transaction is aborted
        },
      };
      const dbUrl = await server.createDatabase();
      // Summaries first: their upsert for the refused request has run when the second projection throws.
      const store = await open(dbUrl, { inlineProjections: [new StreamSummariesPgProjection(), refusing] });
      expect(() => store.registerInline(new StreamSummariesPgProjection())).toThrow(/twice/);
      const [s1, s2, s3, s4, s5] = ['agent', 'run', 'session', 'agent', 'run'].map((kind) => `${kind}-${randomUUID()}`);
      await store.append(s1, 'no_stream', [event('Created')]);
      expect(() => store.registerInline({ ...refusing, name: 'late' })).toThrow(/before the first append/);
      const before = { head: await store.headPosition(), commits: store.stats().commits };

      // One turn of the event loop: one group, whose two failing requests must fail alone.
      const outcomes = await Promise.allSettled([
        store.append(s1, 1, [event('Renamed')]),
        store.append(s2, 'no_stream', [event('Started'), event('Refused')]),
        store.appendMany([
          { streamId: s3, expectedVersion: 'no_stream', events: [event('Opened')] },
          { streamId: s4, expectedVersion: 'no_stream', events: [event('Created')] },
        ]),
        store.append(s5, 'no_stream', [event('DivideByZero')]),
      ]);

      expect(store.stats().commits).toBe(before.commits + 1);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('projection refuses'));
      const divide = (outcomes[3] as PromiseRejectedResult).reason as DatabaseError;
      expect(divide).toBeInstanceOf(DatabaseError);
      expect(divide.code).toBe('22012');
      for (const stream of [s2, s5]) {
        expect(await store.streamVersion(stream)).toBe(0);
        expect(await store.readStream(stream)).toEqual([]);
      }
      const log = await wholeLog(store);
      expect(log.filter((e) => e.globalPosition > before.head).map((e) => [e.streamId, e.type])).toEqual([
        [s1, 'Renamed'],
        [s3, 'Opened'],
        [s4, 'Created'],
      ]);
      expect(await readModel(dbUrl)).toEqual(foldSummaries(log));

      // Nothing of the refused appends stays behind: the streams start over from no_stream.
      await store.append(s2, 'no_stream', [event('Started')]);
      expect(await readModel(dbUrl)).toEqual(foldSummaries(await wholeLog(store)));
    });
  });

  describe('async', () => {
    it('catches up from its checkpoint after a restart (new store and runner on the same database), applying no event twice', async () => {
      const url = await server.createDatabase();
      const first = await open(url);
      const streams = Array.from({ length: 9 }, (_, i) => `${['agent', 'run', 'session'][i % 3]}-${randomUUID()}`);
      const appendSome = (store: PostgresEventStore, n: number, from: number) =>
        Promise.all(Array.from({ length: n }, (_, i) => store.append(streams[(from + i) % streams.length], 'any', [event(`E${(from + i) % 4}`)])));
      await appendSome(first, 400, 0);

      // The batch after position 100 waits at a gate: the runner is stopped there, deterministically part-way.
      let open100!: () => void;
      const gate = new Promise<void>((resolve) => (open100 = resolve));
      const summaries = new StreamSummariesPgProjection();
      const gated: PgProjection = {
        name: summaries.name,
        tables: summaries.tables,
        async apply(client, events) {
          if (events[0].globalPosition > 100) await gate;
          await summaries.apply(client, events);
        },
      };
      const runner1 = runner(first, [gated], { batchSize: 20 });
      await runner1.start();
      await waitUntil(() => runner1.position('stream-summaries') === 100, 'the first runner to apply five batches', 20_000);
      expect((await runner1.status())[0]).toEqual({ name: 'stream-summaries', state: 'catching-up', position: 100, lag: 300 });
      // Stopped as a shutdown would: the batch under way commits, no further batch starts.
      const stopping = runner1.stop();
      open100();
      await stopping;
      const stoppedAt = runner1.position('stream-summaries');
      expect(stoppedAt).toBe(120);
      expect(await readModel(url)).toEqual(foldSummaries(await wholeLog(first, stoppedAt)));
      await appendSome(first, 100, 400); // appended while no runner runs

      const second = await open(url);
      const runner2 = runner(second, [new StreamSummariesPgProjection()], { batchSize: 20 });
      await runner2.start();
      expect(runner2.position('stream-summaries')).toBe(stoppedAt);
      await waitUntil(() => runner2.position('stream-summaries') === 500, 'the second runner to catch up', 20_000);

      // Live: an append on the other instance's store reaches the runner through NOTIFY (or the poll).
      await first.append(streams[0], 'any', [event('Live')]);
      await waitUntil(() => runner2.position('stream-summaries') === 501, 'the live event', 20_000);
      expect((await runner2.status())[0]).toMatchObject({ state: 'live', position: 501, lag: 0 });

      const model = await readModel(url);
      expect(model).toEqual(foldSummaries(await wholeLog(second)));
      for (const row of model) expect(row.event_count).toBe(await second.streamVersion(row.stream_id));
    });

    it('two instances running the same projection take turns at its checkpoint: every event applied once', async () => {
      const url = await server.createDatabase();
      const [a, b] = [await open(url), await open(url)];
      const [ra, rb] = [a, b].map((store) => runner(store, [new StreamSummariesPgProjection()], { batchSize: 7 }));
      await Promise.all([ra.start(), rb.start()]);
      const streams = Array.from({ length: 6 }, (_, i) => `${['agent', 'run'][i % 2]}-${randomUUID()}`);
      await Promise.all(Array.from({ length: 300 }, (_, i) => [a, b][i % 2].append(streams[i % streams.length], 'any', [event(`E${i % 3}`)])));
      await waitUntil(
        () => ra.position('stream-summaries') === 300 && rb.position('stream-summaries') === 300 && true,
        'both runners to reach the head',
        20_000,
      );
      const model = await readModel(url);
      expect(model).toEqual(foldSummaries(await wholeLog(a)));
      for (const row of model) expect(row.event_count).toBe(50);
    });

    it('retries a failing batch from its checkpoint with the error in its status, then catches up with nothing applied twice', async () => {
      const url = await server.createDatabase();
      const store = await open(url);
      const projection = new PoisonableSummaries();
      const r = runner(store, [projection], { retryMaxMs: 200, batchSize: 50 });
      await r.start();
      const stream = `agent-${randomUUID()}`;
      const other = `run-${randomUUID()}`;
      for (let i = 0; i < 10; i += 1) await store.append(i % 2 ? stream : other, 'any', [event('Good', { i })]);
      const poison = await store.append(stream, 'any', [event('Poison')]);
      await Promise.all(Array.from({ length: 10 }, (_, i) => store.append(other, 'any', [event('After', { i })])));

      const failing = await waitUntil(
        async () => {
          const [status] = await r.status();
          return status.state === 'failing' && (status.failedAttempts ?? 0) >= 3 && status;
        },
        'the status to show repeated failures',
        20_000,
      );
      expect(failing).toMatchObject({ name: 'stream-summaries', lastError: 'read model disk full' });
      expect(failing.position).toBeLessThan(poison.events[0].globalPosition);
      expect(failing.lag).toBeGreaterThan(0);
      expect(failing.failingSince).toEqual(expect.any(String));
      expect(failing.nextRetryAt).toEqual(expect.any(String));
      // Every failed attempt rolled back with its batch: the model is the fold up to the checkpoint.
      expect(await readModel(url)).toEqual(foldSummaries(await wholeLog(store, failing.position)));

      projection.poisoned = false; // the cause is gone (space freed)
      const head = await store.headPosition();
      await waitUntil(async () => (await r.status())[0].state === 'live' && r.position('stream-summaries') === head, 'the retry to succeed', 20_000);
      const [healed] = await r.status();
      expect(healed).toEqual({ name: 'stream-summaries', state: 'live', position: head, lag: 0 });
      expect(projection.attempts).toBeGreaterThanOrEqual(3);
      const model = await readModel(url);
      expect(model).toEqual(foldSummaries(await wholeLog(store)));
      expect(model.map((row) => row.event_count)).toEqual([await store.streamVersion(model[0].stream_id), await store.streamVersion(model[1].stream_id)]);
    });
  });
});

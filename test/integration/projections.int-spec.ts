import { asc, eq, like, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { DatabaseError, type ClientBase } from 'pg';
import type { ReadModelDatabase } from '../../src/database/read-model-database';
import { StreamSummariesProjection } from '../../src/event-log/projections/stream-summaries.projection';
import type { EventStore } from '../../src/event-store/event-store';
import type { NewEvent, StoredEvent } from '../../src/event-store/event-store.types';
import type { PostgresEventStore, PostgresEventStoreOptions } from '../../src/event-store/postgres/postgres-event-store';
import type { AsyncProjectionRunner, AsyncProjectionStatus } from '../../src/projections/async-projection-runner';
import { PgAsyncProjectionRunner, type PgAsyncProjectionRunnerOptions } from '../../src/projections/pg-async-projection-runner';
import { type PgProjection, pgProjectionOf } from '../../src/projections/postgres-projection';
import { type Projection, type ProjectionWork, PerEventProjection, perEventProjection, run } from '../../src/projections/projection';
import { PgProjectionRebuilder } from '../../src/projections/rebuild-projection/pg-projection-rebuilder';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { foldSummaries, readSummaries, wholeLog } from '../fixtures/stream-summary-fold';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(120_000);

const targets = eventStoreTargets();
const [, [, openPostgresTarget]] = targets;

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data });
const agentCreated = (id: string): NewEvent => event('agent.created', { id, fields: { name: `Agent ${id}`, instructions: 'help' } });

/** An agents row for the event, as a projection of the app's kind writes one: its rollback must undo it. */
const agentRow = (id: string, e: StoredEvent) => ({ id, name: 'x', fields: '{}', version: 1, createdAt: e.recordedAt, updatedAt: e.recordedAt });

/** An inline projection that writes a row, then refuses `Refused` events: its append must roll back alone. */
class RefusingProjection extends PerEventProjection {
  readonly name = 'refusing';
  readonly mode = 'inline';
  readonly tables = [] as const;
  readonly eventTypes = ['Refused'];

  *apply(e: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    yield* run(db.orm.insert(db.tables.agents).values(agentRow(`refused-${e.eventId}`, e)));
    throw new Error(`refused ${e.streamId}`);
  }
}

/** An inline projection whose statement the database refuses (a NOT NULL column left null) on `Broken` events. */
class BrokenStatementProjection extends PerEventProjection {
  readonly name = 'broken-statement';
  readonly mode = 'inline';
  readonly tables = [] as const;
  readonly eventTypes = ['Broken'];

  *apply(e: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    yield* run(db.orm.insert(db.tables.agents).values({ ...agentRow(`broken-${e.eventId}`, e), name: null as unknown as string }));
  }
}

/**
 * The async stream-summaries, failing: its upsert goes through first, then a throw for a `Poison`
 * event while `poisoned` is set, so a retry that did not roll the upsert back would count twice.
 */
class PoisonableSummaries extends PerEventProjection {
  readonly name = 'stream-summaries';
  readonly mode = 'async';
  readonly tables = ['streamSummaries'] as const;
  poisoned = true;
  attempts = 0;
  private readonly inner = new StreamSummariesProjection();

  *apply(e: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    yield* this.inner.apply(e, db);
    if (this.poisoned && e.type === 'Poison') {
      this.attempts += 1;
      throw new Error('read model disk full');
    }
  }
}

const checkpoint = async (db: ReadModelDatabase, name: string) => {
  const { projectionCheckpoints } = db.tables;
  const [row] = await db.orm
    .select({ position: projectionCheckpoints.position })
    .from(projectionCheckpoints)
    .where(eq(projectionCheckpoints.projectionName, name));
  return row?.position;
};

const auditRows = (db: ReadModelDatabase) =>
  db.orm
    .select({ globalPosition: db.tables.auditLog.globalPosition, actor: db.tables.auditLog.actor, eventType: db.tables.auditLog.eventType })
    .from(db.tables.auditLog)
    .orderBy(asc(db.tables.auditLog.globalPosition));

const statusOf = async (runner: AsyncProjectionRunner, name: string): Promise<AsyncProjectionStatus | undefined> =>
  (await runner.status()).find((status) => status.name === name);

/** The projections' contract, one body on both stores: inline in the append's transaction, async from checkpoints, rebuilds. */
describe.each(targets)('projections on %s', (_name, openTarget) => {
  describe('inline', () => {
    let target: EventStoreTarget;

    beforeAll(async () => {
      target = await openTarget({ projections: () => [new RefusingProjection(), new BrokenStatementProjection()] });
    });

    afterAll(() => target?.close());

    it('keeps the read model equal to a fold of the log after many concurrent appends on three stores', async () => {
      // Three stores on the database (connections on SQLite, instances on PostgreSQL), appending at once.
      const stores = [target.store, ...(await Promise.all([target.openAnother(), target.openAnother()])).map((other) => other.store)];
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

      const log = (await wholeLog(target.store)).filter((e) => streams.includes(e.streamId));
      expect(log.some((e) => e.type === 'Stale')).toBe(false);
      const model = await readSummaries(target.db, streams);
      expect(model).toEqual(foldSummaries(log));
      // The count column is the proof no event was applied twice: each stream's count is its version.
      for (const row of model) expect(row.eventCount).toBe(await stores[1].streamVersion(row.streamId));
      // Groups did form (else this proves nothing about the group path).
      expect(stores.some((s) => s.stats().appends > s.stats().commits)).toBe(true);
    });

    it('runs in the append transaction, from every store: a read right after the append sees the row', async () => {
      const [a, b] = [target.store, (await target.openAnother()).store];
      const { db } = target;
      const ids = Array.from({ length: 30 }, () => randomUUID());
      await Promise.all(
        ids.map(async (id, i) => {
          const store = i % 2 === 0 ? a : b;
          await store.append(`agent-${id}`, 'no_stream', [agentCreated(id)]);
          // Inline: the row is there the moment the append resolves.
          const rows = await db.orm.select({ name: db.tables.agents.name }).from(db.tables.agents).where(eq(db.tables.agents.id, id));
          expect(rows).toEqual([{ name: `Agent ${id}` }]);
          await store.append(`session-${id}`, 'any', [event('Touched', { i }), event('Touched', { i: i + 1 })]);
        }),
      );
      const streams = ids.flatMap((id) => [`agent-${id}`, `session-${id}`]);
      expect(await readSummaries(db, streams)).toEqual(foldSummaries((await wholeLog(a)).filter((e) => streams.includes(e.streamId))));
    });

    it('a throwing projection, or one whose statement fails, rolls back its own append only: the group commits, the caller gets the error', async () => {
      const { store, db } = target;
      const [s1, s2, s3, s4, s5] = ['agent', 'run', 'session', 'agent', 'run'].map((kind) => `${kind}-${randomUUID()}`);
      await store.append(s1, 'no_stream', [event('Created')]);
      const before = { head: await store.headPosition(), commits: store.stats().commits };

      // One turn of the event loop: one group, whose two failing requests must fail alone.
      const outcomes = await Promise.allSettled([
        store.append(s1, 1, [event('Renamed')]),
        store.append(s2, 'no_stream', [event('Started'), event('Refused')]),
        store.appendMany([
          { streamId: s3, expectedVersion: 'no_stream', events: [event('Opened')] },
          { streamId: s4, expectedVersion: 'no_stream', events: [event('Created')] },
        ]),
        store.append(s5, 'no_stream', [event('Broken')]),
      ]);

      expect(store.stats().commits).toBe(before.commits + 1);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error(`refused ${s2}`));
      // The database's own refusal (SQLite: "NOT NULL constraint failed", PostgreSQL: "violates not-null constraint").
      expect(((outcomes[3] as PromiseRejectedResult).reason as Error).message).toMatch(/not[ -]null constraint/i);
      for (const stream of [s2, s5]) {
        expect(await store.streamVersion(stream)).toBe(0);
        expect(await store.readStream(stream)).toEqual([]);
      }
      const streams = [s1, s2, s3, s4, s5];
      const log = (await wholeLog(store)).filter((e) => streams.includes(e.streamId));
      expect(log.filter((e) => e.globalPosition > before.head).map((e) => [e.streamId, e.type])).toEqual([
        [s1, 'Renamed'],
        [s3, 'Opened'],
        [s4, 'Created'],
      ]);
      expect(await readSummaries(db, streams)).toEqual(foldSummaries(log));
      // The rows the failing projections wrote went with their appends.
      expect(await db.orm.select().from(db.tables.agents).where(like(db.tables.agents.id, 'refused-%'))).toEqual([]);
      expect(await db.orm.select().from(db.tables.agents).where(like(db.tables.agents.id, 'broken-%'))).toEqual([]);

      // Nothing of the refused appends stays behind: the streams start over from no_stream.
      await store.append(s2, 'no_stream', [event('Started')]);
      expect(await readSummaries(db, streams)).toEqual(foldSummaries((await wholeLog(store)).filter((e) => streams.includes(e.streamId))));
    });
  });

  describe('async', () => {
    it('runs from its checkpoint, and after a restart resumes on another store where it stopped, applying each event once', async () => {
      const target = await openTarget({ summaries: 'async' });
      try {
        const { store, db } = target;
        const streams = Array.from({ length: 9 }, (_, i) => `${['agent', 'run', 'session'][i % 3]}-${randomUUID()}`);
        const appendSome = (s: EventStore, n: number, from: number, actor: string) =>
          Promise.all(
            Array.from({ length: n }, (_, i) =>
              s.append(streams[(from + i) % streams.length], 'any', [
                { ...event(`E${(from + i) % 4}`), metadata: { actor, correlationId: `c-${from + i}` } },
              ]),
            ),
          );
        await appendSome(store, 300, 0, 'tester');

        const first = await target.runAsyncProjections();
        let head = await store.headPosition();
        await waitUntil(
          () => first.runner.position('stream-summaries') === head && first.runner.position('audit-log') === head,
          'the first runner to catch up',
          20_000,
        );
        await first.stop();
        expect(await checkpoint(db, 'stream-summaries')).toBe(head);
        expect(await checkpoint(db, 'audit-log')).toBe(head);
        const stoppedAt = head;

        // Appended while no runner runs (as by another process); a runner on another store picks up at the checkpoint.
        await appendSome(store, 100, 300, 'while-stopped');
        const other = await target.openAnother();
        const second = await other.runAsyncProjections();
        expect(second.runner.position('stream-summaries')).toBe(stoppedAt);
        expect(second.runner.position('audit-log')).toBe(stoppedAt);
        head = await other.store.headPosition();
        await waitUntil(
          () => second.runner.position('stream-summaries') === head && second.runner.position('audit-log') === head,
          'the second runner to catch up',
          20_000,
        );

        // Live: an append on its store reaches the runner.
        await other.store.append(streams[0], 'any', [event('Live')]);
        head += 1;
        await waitUntil(
          () => second.runner.position('stream-summaries') === head && second.runner.position('audit-log') === head,
          'the live event',
          20_000,
        );
        expect(await statusOf(second.runner, 'stream-summaries')).toEqual({ name: 'stream-summaries', state: 'live', position: head, lag: 0 });
        expect(await statusOf(second.runner, 'audit-log')).toEqual({ name: 'audit-log', state: 'live', position: head, lag: 0 });

        const log = await wholeLog(other.store);
        const model = await readSummaries(db);
        expect(model).toEqual(foldSummaries(log));
        // Each event applied once: every stream's count is its version.
        for (const row of model) expect(row.eventCount).toBe(await other.store.streamVersion(row.streamId));
        const audit = await auditRows(db);
        expect(audit.map((row) => row.globalPosition)).toEqual(log.map((e) => e.globalPosition));
        expect(audit.filter((row) => row.actor === 'while-stopped')).toHaveLength(100);
        expect(audit.filter((row) => row.actor === 'tester')).toHaveLength(300);
        await second.stop();
      } finally {
        await target.close();
      }
    });

    it('retries a failing batch from its checkpoint with the error in its status, then catches up with nothing applied twice', async () => {
      const projection = new PoisonableSummaries();
      const target = await openTarget({ summaries: 'none', projections: () => [projection] });
      try {
        const { store, db } = target;
        const { runner } = await target.runAsyncProjections({ retryMaxMs: 200 });
        const stream = `agent-${randomUUID()}`;
        const other = `run-${randomUUID()}`;
        for (let i = 0; i < 10; i += 1) await store.append(i % 2 ? stream : other, 'any', [event('Good', { i })]);
        const poison = await store.append(stream, 'any', [event('Poison')]);
        await Promise.all(Array.from({ length: 10 }, (_, i) => store.append(other, 'any', [event('After', { i })])));

        const failing = await waitUntil(
          async () => {
            const status = await statusOf(runner, 'stream-summaries');
            return status?.state === 'failing' && (status.failedAttempts ?? 0) >= 3 && status;
          },
          'the status to show repeated failures',
          20_000,
        );
        expect(failing).toMatchObject({ name: 'stream-summaries', lastError: 'read model disk full' });
        expect(failing.position).toBeLessThan(poison.events[0].globalPosition);
        expect(failing.lag).toBeGreaterThan(0);
        expect(Date.parse(failing.nextRetryAt as string)).toBeGreaterThan(Date.parse(failing.failingSince as string));
        // Every failed attempt rolled back with its batch: the model is the fold up to the checkpoint.
        expect(await readSummaries(db)).toEqual(foldSummaries(await wholeLog(store, { upTo: failing.position })));

        projection.poisoned = false; // the cause is gone (space freed)
        const head = await store.headPosition();
        await waitUntil(
          async () => (await statusOf(runner, 'stream-summaries'))?.state === 'live' && runner.position('stream-summaries') === head,
          'the retry to succeed',
          20_000,
        );
        expect(await statusOf(runner, 'stream-summaries')).toEqual({ name: 'stream-summaries', state: 'live', position: head, lag: 0 });
        expect(projection.attempts).toBeGreaterThanOrEqual(3);
        const model = await readSummaries(db);
        expect(model).toEqual(foldSummaries(await wholeLog(store)));
        expect(model.map((row) => row.eventCount)).toEqual(await Promise.all(model.map((row) => store.streamVersion(row.streamId))));
      } finally {
        await target.close();
      }
    });
  });

  describe('rebuild', () => {
    let target: EventStoreTarget;

    beforeAll(async () => {
      target = await openTarget();
    });

    afterAll(() => target?.close());

    it.each(['stream-summaries', 'audit-log'])('rebuilds %s from position 0 into tables equal to the live ones', async (name) => {
      const { store, db } = target;
      const appends: Promise<unknown>[] = [];
      for (let s = 0; s < 7; s++) {
        for (let i = 0; i < 9; i++) {
          appends.push(
            store.append(`thing-${name}-${s}`, 'any', [
              { type: i === 0 ? 'thing.created' : 'thing.changed', data: { s, i }, metadata: { actor: 'tester', correlationId: `c-${s}` } },
            ]),
          );
        }
      }
      await Promise.all(appends);
      const head = await store.headPosition();
      const running = await target.runAsyncProjections();
      await waitUntil(() => running.runner.position('audit-log') === head, 'audit-log to catch up');
      await running.stop();
      const live = name === 'audit-log' ? await auditRows(db) : await readSummaries(db);
      if (name === 'audit-log') await db.orm.update(db.tables.auditLog).set({ actor: 'tampered' });
      else await db.orm.update(db.tables.streamSummaries).set({ eventCount: 0 });

      const progress: number[] = [];
      const result = await target.rebuild(name, (p) => progress.push(p.applied));
      expect(result).toEqual({ projection: name, eventsApplied: head, position: head });
      expect(progress[progress.length - 1]).toBe(head);
      expect(name === 'audit-log' ? await auditRows(db) : await readSummaries(db)).toEqual(live);
      if (name === 'audit-log') expect(await checkpoint(db, 'audit-log')).toBe(head);
    });

    it('rebuilds while another store appends: the model is the fold of the whole log, page by page; an async one moves its checkpoint', async () => {
      const { store, db } = target;
      const writer = await target.openAnother();
      for (let i = 0; i < 15; i++)
        await store.append(
          `session-${randomUUID()}`,
          0,
          Array.from({ length: 100 }, () => event('Before')),
        );

      const progress: number[] = [];
      const [rebuilt] = await Promise.all([
        target.rebuild('stream-summaries', ({ applied }) => progress.push(applied)),
        Promise.all(Array.from({ length: 20 }, () => writer.store.append(`session-${randomUUID()}`, 0, [event('During')]))),
      ]);
      const log = await wholeLog(store);
      expect(await readSummaries(db)).toEqual(foldSummaries(log));
      expect(progress.length).toBeGreaterThan(1); // more than one page of 1,000
      expect(rebuilt.eventsApplied).toBe(progress.at(-1));

      const audit = await target.rebuild('audit-log');
      expect(audit).toEqual({ projection: 'audit-log', eventsApplied: log.length, position: log.at(-1)?.globalPosition });
      expect(await checkpoint(db, 'audit-log')).toBe(audit.position);
      expect((await auditRows(db)).map((row) => row.globalPosition)).toEqual(log.map((e) => e.globalPosition));
    });

    it('refuses to rebuild an unknown projection and names the known ones', async () => {
      await expect(target.rebuild('nope')).rejects.toThrow(/Unknown projection nope; known projections: .*stream-summaries/);
    });
  });
});

/** What only the PostgreSQL store and its runner have: PgProjections given to the store, several runners on one checkpoint, batch forms. */
describe('PostgreSQL adapter: projections of several instances on one database', () => {
  let target: EventStoreTarget;
  let url: string;
  const opened: PostgresEventStore[] = [];
  const runners: PgAsyncProjectionRunner[] = [];

  /** A store of its own on a database of its own (the target's first store has the app's inline projections). */
  const open = async (options?: Omit<PostgresEventStoreOptions, 'connectionString'>) => {
    const store = await openPostgresEventStore(url, { pollIntervalMs: 200, ...options });
    opened.push(store);
    return store;
  };
  const runner = (store: PostgresEventStore, projections: PgProjection[], options?: PgAsyncProjectionRunnerOptions) => {
    const r = new PgAsyncProjectionRunner(store, projections, options);
    runners.push(r);
    return r;
  };
  /** A fresh database on the file's server, for a test whose read model must start empty. */
  const freshTarget = async () => {
    const fresh = await openPostgresTarget({ summaries: 'none' });
    if (fresh.adapter.dialect !== 'postgres') throw new Error('not PostgreSQL');
    return { fresh, url: fresh.adapter.url };
  };

  beforeAll(async () => {
    target = await openPostgresTarget();
    if (target.adapter.dialect !== 'postgres') throw new Error('not PostgreSQL');
    url = target.adapter.url;
  });

  afterAll(async () => {
    for (const r of runners) await r.stop();
    for (const s of opened) await s.close();
    await target?.close();
  });

  it('PgProjections given to the store run inline; a throw or a failing statement rolls back its own append; they register before the first append only', async () => {
    const refusing: PgProjection = {
      name: 'refusing',
      tables: [],
      eventTypes: ['Refused', 'DivideByZero'],
      async apply(client, events) {
        if (events.some((e) => e.type === 'Refused')) throw new Error('projection refuses');
        await client.query('SELECT 1 / 0'); // a statement that fails: the transaction is aborted
      },
    };
    const { fresh, url: dbUrl } = await freshTarget();
    try {
      // Summaries first: their upsert for the refused request has run when the second projection throws.
      const store = await openPostgresEventStore(dbUrl, { inlineProjections: [pgProjectionOf(new StreamSummariesProjection()), refusing] });
      opened.push(store);
      expect(() => store.registerInline(pgProjectionOf(new StreamSummariesProjection()))).toThrow(/twice/);
      const [s1, s2, s3, s4, s5] = ['agent', 'run', 'session', 'agent', 'run'].map((kind) => `${kind}-${randomUUID()}`);
      await store.append(s1, 'no_stream', [event('Created')]);
      expect(() => store.registerInline({ ...refusing, name: 'late' })).toThrow(/before the first append/);
      const before = { head: await store.headPosition(), commits: store.stats().commits };

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
      expect(await readSummaries(fresh.db)).toEqual(foldSummaries(log));
    } finally {
      await fresh.close();
    }
  });

  it('PgAsyncProjectionRunner stopped part-way commits the batch under way; a runner on another instance resumes there and is woken by the first instance', async () => {
    const { fresh, url: dbUrl } = await freshTarget();
    try {
      const first = await openPostgresEventStore(dbUrl, { pollIntervalMs: 200 });
      opened.push(first);
      const streams = Array.from({ length: 9 }, (_, i) => `${['agent', 'run', 'session'][i % 3]}-${randomUUID()}`);
      const appendSome = (store: PostgresEventStore, n: number, from: number) =>
        Promise.all(Array.from({ length: n }, (_, i) => store.append(streams[(from + i) % streams.length], 'any', [event(`E${(from + i) % 4}`)])));
      await appendSome(first, 400, 0);

      // The batch after position 100 waits at a gate: the runner is stopped there, deterministically part-way.
      let open100!: () => void;
      const gate = new Promise<void>((resolve) => (open100 = resolve));
      const summaries = pgProjectionOf(new StreamSummariesProjection());
      const gated: PgProjection = {
        name: summaries.name,
        tables: summaries.tables,
        async apply(client: ClientBase, events) {
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
      expect(await readSummaries(fresh.db)).toEqual(foldSummaries(await wholeLog(first, { upTo: stoppedAt })));
      await appendSome(first, 100, 400); // appended while no runner runs

      const second = await openPostgresEventStore(dbUrl, { pollIntervalMs: 200 });
      opened.push(second);
      const runner2 = runner(second, [pgProjectionOf(new StreamSummariesProjection())], { batchSize: 20 });
      await runner2.start();
      expect(runner2.position('stream-summaries')).toBe(stoppedAt);
      await waitUntil(() => runner2.position('stream-summaries') === 500, 'the second runner to catch up', 20_000);

      // Live: an append on the other instance's store reaches the runner through NOTIFY (or the poll).
      await first.append(streams[0], 'any', [event('Live')]);
      await waitUntil(() => runner2.position('stream-summaries') === 501, 'the live event', 20_000);
      expect((await runner2.status())[0]).toMatchObject({ state: 'live', position: 501, lag: 0 });
      const model = await readSummaries(fresh.db);
      expect(model).toEqual(foldSummaries(await wholeLog(second)));
      for (const row of model) expect(row.eventCount).toBe(await second.streamVersion(row.streamId));
    } finally {
      await fresh.close();
    }
  });

  it('two instances running the same projection take turns at its checkpoint: every event applied once', async () => {
    const { fresh, url: dbUrl } = await freshTarget();
    try {
      const [a, b] = [await openPostgresEventStore(dbUrl, { pollIntervalMs: 200 }), await openPostgresEventStore(dbUrl, { pollIntervalMs: 200 })];
      opened.push(a, b);
      const [ra, rb] = [a, b].map((store) => runner(store, [pgProjectionOf(new StreamSummariesProjection())], { batchSize: 7 }));
      await Promise.all([ra.start(), rb.start()]);
      const streams = Array.from({ length: 6 }, (_, i) => `${['agent', 'run'][i % 2]}-${randomUUID()}`);
      await Promise.all(Array.from({ length: 300 }, (_, i) => [a, b][i % 2].append(streams[i % streams.length], 'any', [event(`E${i % 3}`)])));
      await waitUntil(
        () => ra.position('stream-summaries') === 300 && rb.position('stream-summaries') === 300 && true,
        'both runners to reach the head',
        20_000,
      );
      const model = await readSummaries(fresh.db);
      expect(model).toEqual(foldSummaries(await wholeLog(a)));
      for (const row of model) expect(row.eventCount).toBe(50);
    } finally {
      await fresh.close();
    }
  });

  it("the runner's own rebuild (tables emptied, checkpoint 0) replays the log into the same read model", async () => {
    const { fresh, url: dbUrl } = await freshTarget();
    try {
      const store = await openPostgresEventStore(dbUrl, { pollIntervalMs: 200 });
      opened.push(store);
      await Promise.all(Array.from({ length: 60 }, (_, i) => store.append(`run-${i % 7}`, 'any', [event('R', { i })])));
      const live = runner(store, [pgProjectionOf(new StreamSummariesProjection())], { batchSize: 64 });
      await live.start();
      const head = await store.headPosition();
      await waitUntil(() => live.position('stream-summaries') === head, 'the runner to reach the head', 20_000);
      const model = await readSummaries(fresh.db);
      expect(model).toEqual(foldSummaries(await wholeLog(store)));
      await live.rebuild('stream-summaries');
      await waitUntil(() => live.position('stream-summaries') === head, 'the rebuild to reach the head', 20_000);
      expect(await readSummaries(fresh.db)).toEqual(model);
      await live.stop();
    } finally {
      await fresh.close();
    }
  });

  it('the batch form writes what the per-event form writes: a rebuild through the per-event form leaves the same rows', async () => {
    const { store, db } = target;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.append(`run-${i % 7}-${randomUUID().slice(0, 4)}`, 'any', [event('R', { i }), event('S')])),
    );
    const byBatchForm = await readSummaries(db);
    expect(byBatchForm).toEqual(foldSummaries(await wholeLog(store)));
    // The per-event form alone: stream-summaries' handler without its set-based form.
    const summaries = new StreamSummariesProjection();
    const perEvent = perEventProjection({
      name: summaries.name,
      mode: summaries.mode,
      tables: summaries.tables,
      apply: (e, db) => summaries.apply(e, db),
    });
    const result = await new PgProjectionRebuilder(target.adapter.store as PostgresEventStore).rebuild(perEvent);
    expect(result).toMatchObject({ projection: 'stream-summaries', position: await store.headPosition() });
    expect(await readSummaries(db)).toEqual(byBatchForm);
  });

  it("an inline projection's rebuild holds appends of every instance until it commits", async () => {
    /** An inline projection that sleeps on its one `Slow` event: a rebuild of it stays open that long. */
    let begin!: () => void;
    const started = new Promise<void>((resolve) => (begin = resolve));
    const slow: Projection = perEventProjection({
      name: 'slow',
      mode: 'inline',
      tables: [],
      eventTypes: ['Slow'],
      *apply(_e, db) {
        begin();
        yield* run(db.orm.execute(sql`SELECT pg_sleep(1)`));
      },
    });
    const store = target.adapter.store as PostgresEventStore;
    const writer = await open();
    await store.append(`session-${randomUUID()}`, 0, [event('Slow')]);
    const order: string[] = [];
    const rebuilding = new PgProjectionRebuilder(store).rebuild(slow).then(() => order.push('rebuild'));
    await started;
    // An append from another instance meanwhile waits at the append lock.
    await writer.append(`session-${randomUUID()}`, 0, [event('During')]).then(() => order.push('append'));
    await rebuilding;
    expect(order).toEqual(['rebuild', 'append']);
  });
});

import { asc, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { AgentsProjection } from '../../src/agents/projections/agents.projection';
import { numericTypes } from '../../src/database/postgres-pool';
import { PostgresReadModels } from '../../src/database/postgres-read-models';
import { AuditLogProjection } from '../../src/event-log/projections/audit-log.projection';
import { StreamSummariesPgProjection } from '../../src/event-log/projections/stream-summaries.pg-projection';
import { StreamSummariesProjection } from '../../src/event-log/projections/stream-summaries.projection';
import type { NewEvent, StoredEvent } from '../../src/event-store/event-store.types';
import { pgProjectionOf } from '../../src/event-store/postgres/pg-projection';
import type { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { type Projection, type ProjectionWork, run } from '../../src/event-store/projection';
import { ProjectionRegistry } from '../../src/event-store/projection-registry';
import type { ReadModelDatabase } from '../../src/database/read-model-database';
import { PgAsyncProjectionRunner } from '../../src/projections/pg-async-projection-runner';
import { PgProjectionRebuilder } from '../../src/projections/rebuild-projection/pg-projection-rebuilder';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(120_000);

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data });
const agentCreated = (id: string): NewEvent => event('agent.created', { id, fields: { name: `Agent ${id}`, instructions: 'help' } });

/** An inline projection of the app's kind that writes a row, then refuses `Refused` events: its append must roll back alone. */
class RefusingProjection implements Projection {
  readonly name = 'refusing';
  readonly mode = 'inline';
  readonly tables = [] as const;
  readonly eventTypes = ['Refused'];

  *apply(e: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    yield* run(
      db.orm
        .insert(db.tables.agents)
        .values({ id: `refused-${e.eventId}`, name: 'x', fields: '{}', version: 1, createdAt: e.recordedAt, updatedAt: e.recordedAt }),
    );
    throw new Error(`refused ${e.streamId}`);
  }
}

/** An inline projection that sleeps on its one `Slow` event: a rebuild of it stays open that long. */
class SlowProjection implements Projection {
  readonly name = 'slow';
  readonly mode = 'inline';
  readonly tables = [] as const;
  readonly eventTypes = ['Slow'];
  private begin!: () => void;
  readonly started = new Promise<void>((resolve) => (this.begin = resolve));

  *apply(_e: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    this.begin();
    yield* run(db.orm.execute(sql`SELECT pg_sleep(1)`));
  }
}

/** The app's registry as the modules fill it: real projections, stream-summaries with or without its batch form. */
function registryOf(options: { batchForm: boolean; refusing?: boolean }): ProjectionRegistry {
  const registry = new ProjectionRegistry();
  registry.register(new StreamSummariesProjection());
  registry.register(new AgentsProjection());
  registry.register(new AuditLogProjection());
  if (options.refusing) registry.register(new RefusingProjection());
  if (options.batchForm) registry.registerBatchForm(new StreamSummariesPgProjection());
  return registry;
}

/** stream_summaries as a plain fold of the log, apart from both projections' code. */
function foldSummaries(log: readonly StoredEvent[]) {
  const rows = new Map<string, { streamId: string; eventCount: number; lastEventType: string; lastGlobalPosition: number }>();
  for (const e of log) {
    const row = rows.get(e.streamId);
    rows.set(e.streamId, { streamId: e.streamId, eventCount: (row?.eventCount ?? 0) + 1, lastEventType: e.type, lastGlobalPosition: e.globalPosition });
  }
  return [...rows.values()].sort((a, b) => (a.streamId < b.streamId ? -1 : 1));
}

async function wholeLog(store: PostgresEventStore): Promise<StoredEvent[]> {
  const log: StoredEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: log.at(-1)?.globalPosition ?? 0 });
    log.push(...page);
    if (page.length < 500) return log;
  }
}

describe("The app's registry projections on the PostgreSQL store (real server)", () => {
  let server: PostgresServer;
  let url: string;
  let pool: Pool;
  let db: PostgresReadModels;
  const opened: PostgresEventStore[] = [];
  const runners: PgAsyncProjectionRunner[] = [];

  const open = async (registry: ProjectionRegistry) => {
    const store = await openPostgresEventStore(url, { registry, pollIntervalMs: 200 });
    opened.push(store);
    return store;
  };
  const summaries = () =>
    db.orm
      .select({
        streamId: db.tables.streamSummaries.streamId,
        eventCount: db.tables.streamSummaries.eventCount,
        lastEventType: db.tables.streamSummaries.lastEventType,
        lastGlobalPosition: db.tables.streamSummaries.lastGlobalPosition,
      })
      .from(db.tables.streamSummaries)
      .orderBy(asc(db.tables.streamSummaries.streamId));
  const checkpoint = async (name: string) =>
    (await pool.query<{ position: number }>('SELECT position FROM projection_checkpoints WHERE projection_name = $1', [name])).rows[0]?.position;

  beforeAll(async () => {
    server = await startPostgresServer();
    url = await server.createDatabase();
    pool = new Pool({ connectionString: url, max: 2, types: numericTypes });
    db = new PostgresReadModels(pool);
  });

  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    for (const store of opened) await store.close();
    await pool?.end();
    server?.stop();
  });

  it('runs the inline projections in the append transaction, from every instance: a read after the append sees them', async () => {
    const [a, b] = [await open(registryOf({ batchForm: true })), await open(registryOf({ batchForm: true }))];
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
    expect(await summaries()).toEqual(foldSummaries(await wholeLog(a)));
  });

  it('a failing registry projection rolls back its own append only: the others of the group commit, the caller gets its error', async () => {
    const store = await open(registryOf({ batchForm: true, refusing: true }));
    const [fine, refused, alsoFine] = [`session-${randomUUID()}`, `session-${randomUUID()}`, `session-${randomUUID()}`];
    const before = store.stats();
    const outcomes = await Promise.allSettled([
      store.append(fine, 0, [event('Fine')]),
      store.append(refused, 0, [event('Fine'), event('Refused')]),
      store.append(alsoFine, 0, [event('Fine')]),
    ]);
    expect(store.stats().commits - before.commits).toBe(1); // one group
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ message: `refused ${refused}` });
    expect(await store.readStream(refused)).toEqual([]);
    const counted = (await summaries()).filter((row) => [fine, refused, alsoFine].includes(row.streamId));
    expect(counted.map((row) => [row.streamId, row.eventCount]).sort()).toEqual(
      [
        [fine, 1],
        [alsoFine, 1],
      ].sort(),
    );
    expect((await pool.query(`SELECT count(*) AS n FROM agents WHERE id LIKE 'refused-%'`)).rows[0]).toEqual({ n: 0 });
  });

  it('the async projection (audit-log) runs through PgAsyncProjectionRunner from its checkpoint, and resumes on a new instance', async () => {
    const registry = registryOf({ batchForm: true });
    const store = await open(registry);
    await store.append(`session-${randomUUID()}`, 0, [{ ...event('Audited'), metadata: { actor: 'tester', correlationId: 'c-1' } }]);
    const runner = new PgAsyncProjectionRunner(store, () => registry.async().map(pgProjectionOf));
    runners.push(runner);
    await runner.start();
    let head = await store.headPosition();
    await waitUntil(() => runner.position('audit-log') === head, 'the audit log to catch up');
    await runner.stop();
    expect(await checkpoint('audit-log')).toBe(head);

    // Appended while no runner runs; a runner of another instance picks up at the checkpoint.
    await store.append(`run-${randomUUID()}`, 0, [event('AfterStop'), event('AfterStop')]);
    const other = await open(registry);
    const resumed = new PgAsyncProjectionRunner(other, () => registry.async().map(pgProjectionOf));
    runners.push(resumed);
    await resumed.start();
    head = await other.headPosition();
    await waitUntil(() => resumed.position('audit-log') === head, 'the other instance to catch up');
    const { rows } = await pool.query<{ global_position: number; actor: string | null; event_type: string }>(
      'SELECT global_position, actor, event_type FROM audit_log ORDER BY global_position',
    );
    expect(rows.map((row) => row.global_position)).toEqual((await wholeLog(other)).map((e) => e.globalPosition));
    expect(rows.find((row) => row.event_type === 'Audited')?.actor).toBe('tester');
    expect(await resumed.status()).toEqual([{ name: 'audit-log', state: 'live', position: head, lag: 0 }]);
  });

  it('the batch form writes what the per-event form writes: a rebuild through the per-event form leaves the same rows', async () => {
    const store = await open(registryOf({ batchForm: true }));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.append(`run-${i % 7}-${randomUUID().slice(0, 4)}`, 'any', [event('R', { i }), event('S')])),
    );
    const byBatchForm = await summaries();
    expect(byBatchForm).toEqual(foldSummaries(await wholeLog(store)));
    const perEvent = registryOf({ batchForm: false });
    const result = await new PgProjectionRebuilder(store, perEvent).rebuild(perEvent.get('stream-summaries') as Projection);
    expect(result).toMatchObject({ projection: 'stream-summaries', position: await store.headPosition() });
    expect(await summaries()).toEqual(byBatchForm);
  });

  it('rebuilds in one transaction: an inline one holds appends until it commits, an async one moves its checkpoint', async () => {
    const registry = registryOf({ batchForm: true });
    const store = await open(registry);
    const writer = await open(registry);
    await store.append(`session-${randomUUID()}`, 0, [event('Slow')]);
    for (let i = 0; i < 15; i++)
      await store.append(
        `session-${randomUUID()}`,
        0,
        Array.from({ length: 100 }, () => event('Before')),
      );

    // An inline projection whose replay takes a while: an append from another instance meanwhile waits at the append lock.
    const slow = new SlowProjection();
    const withSlow = registryOf({ batchForm: true });
    withSlow.register(slow);
    const order: string[] = [];
    const rebuilding = new PgProjectionRebuilder(store, withSlow).rebuild(slow).then(() => order.push('rebuild'));
    await slow.started;
    await writer.append(`session-${randomUUID()}`, 0, [event('During')]).then(() => order.push('append'));
    await rebuilding;
    expect(order).toEqual(['rebuild', 'append']);

    // stream-summaries, with appends from another instance under way: the rebuilt model is the fold of the whole log.
    const rebuilder = new PgProjectionRebuilder(store, registry);
    const progress: number[] = [];
    const [rebuilt] = await Promise.all([
      rebuilder.rebuild(registry.get('stream-summaries') as Projection, ({ applied }) => progress.push(applied)),
      Promise.all(Array.from({ length: 20 }, () => writer.append(`session-${randomUUID()}`, 0, [event('During')]))),
    ]);
    const log = await wholeLog(store);
    expect(await summaries()).toEqual(foldSummaries(log));
    expect(progress.length).toBeGreaterThan(1); // more than one page of 1,000
    expect(rebuilt.eventsApplied).toBe(progress.at(-1));

    const audit = await rebuilder.rebuild(registry.get('audit-log') as Projection);
    expect(audit).toEqual({ projection: 'audit-log', eventsApplied: log.length, position: log.at(-1)?.globalPosition });
    expect(await checkpoint('audit-log')).toBe(audit.position);
    expect((await pool.query('SELECT count(*) AS n FROM audit_log')).rows[0]).toEqual({ n: log.length });
  });
});

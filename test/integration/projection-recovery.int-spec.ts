import { asc, sql } from 'drizzle-orm';
import type { SwitchboardConfig } from '../../src/config/switchboard-config';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

/** A trigger that refuses the audit log's writes as a full disk would, and how to take it away, in each dialect. */
const DISK_FULL = {
  sqlite: {
    on: `CREATE TRIGGER audit_log_disk_full BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
    off: 'DROP TRIGGER audit_log_disk_full',
  },
  postgres: {
    on: `CREATE FUNCTION audit_log_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'database or disk is full'; END $$;
         CREATE TRIGGER audit_log_disk_full BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_disk_full()`,
    off: 'DROP TRIGGER audit_log_disk_full ON audit_log',
  },
};

/**
 * Fault injection on the real database: a trigger makes it refuse the audit log's writes (as a full
 * disk would) while events keep committing. The async projection must fail without skipping, retry
 * with backoff, say so on /health and /health/ready, and catch up by itself once the writes are taken
 * again, each event applied exactly once. The app runs on the target's database; the target's own
 * connection is the outside one, as an operator's shell would be.
 */
describe.each(eventStoreTargets())('an async projection whose writes fail for a while (%s, real HTTP)', (_name, openTarget) => {
  let target: EventStoreTarget;
  let running: RunningApp;
  let http: JsonHttp;
  const { dir, cleanup } = makeTempDir();

  /** Runs DDL as the outside connection. */
  const outside = async (statement: string) => {
    if (target.adapter.dialect === 'sqlite') target.adapter.database.connection.exec(statement);
    else await target.db.orm.execute(sql.raw(statement));
  };

  beforeAll(async () => {
    target = await openTarget();
    const defaults = testConfig(dir);
    const database: Partial<SwitchboardConfig> =
      target.adapter.dialect === 'sqlite'
        ? { database: { ...defaults.database, file: target.adapter.file } }
        : { postgres: { url: target.adapter.url, poolSize: 4 } };
    running = await startTestApp(
      {
        ...database,
        // A provider, so readiness has nothing to refuse but the projection; fast retries keep the test short.
        cli: { ...defaults.cli, provider: { type: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'test' } },
        resilience: { ...defaults.resilience, projectionRetryMaxMs: 400, readyMaxProjectionLag: 0 },
      },
      dir,
    );
    http = jsonHttp(() => running.baseUrl);
  }, 30_000);

  afterAll(async () => {
    await running?.stop();
    await target?.close();
    cleanup();
  });

  const createAgent = async (id: string) =>
    expect((await http('POST', '/api/agents', { id, name: id, system_message: { mode: 'append', content: 'Work.' } })).status).toBe(201);
  const auditLog = async (): Promise<Json> => (await http('GET', '/api/audit?limit=1000')).body;
  const auditProjection = async (): Promise<Json> => (await http('GET', '/health')).body.projections.find((p: Json) => p.name === 'audit-log');

  it('is ready once caught up', async () => {
    await createAgent('before-fault');
    const ready = await waitUntil(async () => {
      const r = await http('GET', '/health/ready');
      return r.status === 200 && r;
    }, 'readiness');
    expect(ready.body).toMatchObject({ status: 'ready', failing: [], checks: { projections: { ok: true }, database: { ok: true } } });
    expect(await auditProjection()).toMatchObject({ state: 'live', lag: 0 });
  });

  it('retries a failing batch with backoff, reports it as not ready meanwhile, and catches up once writes are taken again', async () => {
    await outside(DISK_FULL[target.adapter.dialect].on);
    await createAgent('during-fault-1');
    await createAgent('during-fault-2');

    // Events commit; the projection fails, keeps its checkpoint and retries, more than once.
    const failing = await waitUntil(async () => {
      const p = await auditProjection();
      return p.state === 'failing' && p.failedAttempts >= 2 && p;
    }, 'the audit log to fail twice');
    expect(failing).toMatchObject({ lastError: expect.stringContaining('database or disk is full'), lag: expect.any(Number) });
    expect(failing.lag).toBeGreaterThanOrEqual(2);
    expect(Date.parse(failing.nextRetryAt)).toBeGreaterThan(Date.parse(failing.failingSince));
    expect((await http('GET', '/api/events?limit=1000')).body.events.map((e: Json) => e.streamId)).toContain('agent-during-fault-2');

    const notReady = await http('GET', '/health/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.body.status).toBe('not_ready');
    expect(notReady.body.failing).toEqual([
      { check: 'projections', reason: expect.stringMatching(/^audit-log is failing since .*, \d+ events behind: .*database or disk is full/) },
    ]);
    expect(notReady.body.checks.projections.projections).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'audit-log', state: 'failing', lag: expect.any(Number) })]),
    );
    // /health itself stays 200: the process and the database are up.
    expect((await http('GET', '/health')).status).toBe(200);
    const behind = (await auditLog()).entries.map((e: Json) => e.streamId);
    expect(behind).not.toContain('agent-during-fault-1');

    await outside(DISK_FULL[target.adapter.dialect].off);
    await createAgent('after-fault');

    await waitUntil(async () => (await http('GET', '/health/ready')).status === 200, 'readiness after the fault cleared', 10_000);
    expect(await auditProjection()).toEqual({ name: 'audit-log', state: 'live', position: expect.any(Number), lag: 0 });
    const caughtUp = (await auditLog()).entries.map((e: Json) => e.streamId);
    expect(caughtUp).toEqual(expect.arrayContaining(['agent-during-fault-1', 'agent-during-fault-2', 'agent-after-fault']));

    // Neither skipped nor applied twice: one audit row per event, in the log's order.
    const { db } = target;
    const events = await db.orm.select({ p: db.tables.events.globalPosition }).from(db.tables.events).orderBy(asc(db.tables.events.globalPosition));
    const audited = await db.orm.select({ p: db.tables.auditLog.globalPosition }).from(db.tables.auditLog).orderBy(asc(db.tables.auditLog.globalPosition));
    expect(audited).toEqual(events);
  }, 30_000);
});

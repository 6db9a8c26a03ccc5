import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { journalEntries } from '../../src/database/database-health';
import { defaultMigrationsFolder } from '../../src/database/migrations';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { collectUntilExit, REPO_ROOT } from '../fixtures/service-process';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';
import { startupRefusal } from '../../src/service-lifecycle';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(120_000);

const TOKEN = 'postgres-e2e-token-0123456789';
const PROVIDER = { type: 'openai' as const, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'test' };
// The test server trusts every local connection: the password is only there to prove it is never shown.
const PASSWORD = 'pg-secret-never-shown';

const agent = (id: string): Json => ({
  id,
  name: `Agent ${id}`,
  description: `${id} does one thing well`,
  system_message: { mode: 'replace', content: `You are ${id}.` },
  tools: { custom: [], builtin: ['grep'], excluded_builtin: [] },
});

/** The real app over real HTTP with SWITCHBOARD_DATABASE_URL set: the log and every read model in PostgreSQL. */
describe('the app on PostgreSQL (SWITCHBOARD_DATABASE_URL)', () => {
  let server: PostgresServer;
  let url: string;
  let database: string;
  const tmp = makeTempDir();
  const apps: RunningApp[] = [];
  /** The app of the test under way, and its JSON client with the token. */
  let running: RunningApp;
  let http: ReturnType<typeof jsonHttp>;

  const start = async () => {
    running = await startTestApp({ apiToken: TOKEN, postgres: { url, poolSize: 4 }, cli: { ...testConfig(tmp.dir).cli, provider: PROVIDER } }, tmp.dir);
    apps.push(running);
    http = jsonHttp(() => running.baseUrl, { authorization: `Bearer ${TOKEN}` });
  };
  /** Connections the app holds on the database (its pool and its LISTEN connection). */
  const appConnections = async (): Promise<number> => {
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
        database,
      ]);
      return Number(rows[0].n);
    } finally {
      await admin.end();
    }
  };

  beforeAll(async () => {
    server = await startPostgresServer();
    const plain = await server.createDatabase();
    database = plain.slice(plain.lastIndexOf('/') + 1);
    url = plain.replace('postgres://postgres@', `postgres://postgres:${PASSWORD}@`);
  });

  afterAll(async () => {
    for (const app of apps) await app.stop();
    server?.stop();
    tmp.cleanup();
  });

  let agentEvents: Json[] = [];

  it('starts on a fresh database: health and readiness name PostgreSQL, never the password; no SQLite file is made', async () => {
    await start();
    const health = await http('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.database).toMatchObject({
      status: 'up',
      dialect: 'postgres',
      host: '127.0.0.1',
      port: server.port,
      database,
      user: 'postgres',
      poolSize: 4,
      migrationsApplied: journalEntries(path.join(defaultMigrationsFolder(), 'postgres')).length,
      connections: { total: expect.any(Number), idle: expect.any(Number), waiting: 0 },
      headPosition: 0,
    });
    expect(JSON.stringify(health.body)).not.toContain(PASSWORD);
    expect(health.body.projections).toEqual([expect.objectContaining({ name: 'audit-log', state: 'live' })]);

    const ready = await waitUntil(async () => {
      const r = await http('GET', '/health/ready');
      return r.status === 200 && r;
    }, 'readiness');
    expect(ready.body).toMatchObject({
      status: 'ready',
      checks: {
        database: { ok: true },
        migrations: { ok: true },
        projections: { ok: true, projections: [expect.objectContaining({ name: 'audit-log' })] },
      },
    });
    expect(JSON.stringify(ready.body)).not.toContain(PASSWORD);
    expect(fs.existsSync(running.config.database.file)).toBe(false);
  });

  it('creates an agent through REST and reads it back; the event log lists its events, the audit log catches up, /metrics counts them', async () => {
    expect((await http('POST', '/api/agents', agent('reviewer'))).status).toBe(201);
    const read = await http('GET', '/api/agents/reviewer');
    expect(read).toMatchObject({ status: 200, body: { id: 'reviewer', name: 'Agent reviewer', version: 1 } });
    expect((await http('GET', '/api/agents')).body.agents).toEqual([expect.objectContaining({ id: 'reviewer', version: 1 })]);

    const events = await http('GET', '/api/events');
    expect(events.status).toBe(200);
    agentEvents = events.body.events.filter((e: Json) => e.streamId === 'agent-reviewer');
    expect(agentEvents.map((e: Json) => e.type)).toEqual(['agent.created']);
    expect((await http('GET', '/api/streams/agent-reviewer')).body).toMatchObject({ streamId: 'agent-reviewer', category: 'agent', version: 1 });

    const audit = await waitUntil(async () => {
      const page = await http('GET', '/api/audit?agentId=reviewer');
      return page.body.entries.length > 0 && page.body;
    }, 'the audit log to catch up');
    expect(audit.entries).toEqual([
      expect.objectContaining({ position: agentEvents[0].globalPosition, streamId: 'agent-reviewer', eventType: 'agent.created' }),
    ]);

    // /metrics reads the same ports: the store's committed$ and commits$, the PostgreSQL runner's lag.
    const metrics = await (await fetch(`${running.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(metrics).toMatch(/^switchboard_event_store_events_total [1-9]\d*$/m);
    expect(metrics).toMatch(/^switchboard_event_store_commits_total\{outcome="committed"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^switchboard_projection_lag_events\{projection="audit-log"\} 0$/m);
  });

  it('restarted on the same database, everything is still there and the log goes on after it; a stopped app leaves no connection', async () => {
    const head = (await http('GET', '/health')).body.database.headPosition;
    await running.stop();
    expect(await appConnections()).toBe(0);

    await start();
    expect((await http('GET', '/api/agents/reviewer')).body).toMatchObject({ id: 'reviewer', version: 1 });
    expect((await http('GET', '/api/events')).body.events.filter((e: Json) => e.streamId === 'agent-reviewer')).toEqual(agentEvents);
    expect((await http('GET', '/api/audit?agentId=reviewer')).body.entries).toHaveLength(1);
    expect((await http('GET', '/health')).body.database.headPosition).toBe(head);

    const updated = await http('PUT', '/api/agents/reviewer', { ...agent('reviewer'), description: 'reviews, after a restart' });
    expect(updated.status).toBe(200);
    const stream = await http('GET', '/api/streams/agent-reviewer/events');
    expect(stream.body.events.map((e: Json) => [e.type, e.streamPosition])).toEqual([
      ['agent.created', 1],
      ['agent.updated', 2],
    ]);
    expect(stream.body.events[1].globalPosition).toBeGreaterThan(head);
    await waitUntil(async () => (await http('GET', '/api/audit?agentId=reviewer')).body.entries.length === 2, 'the audit log to follow');
  });

  it('the maintenance commands run on it: projections:rebuild --all, then agents:export', async () => {
    await running.stop();
    const cli = (args: string[]) =>
      collectUntilExit(
        spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'maintenance.js'), ...args], {
          cwd: REPO_ROOT,
          env: { ...process.env, SWITCHBOARD_DATABASE_URL: url, SWITCHBOARD_DB: path.join(tmp.dir, 'unused.db') },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
        60_000,
      );
    const rebuilt = await cli(['projections:rebuild', '--all']);
    expect(rebuilt).toMatchObject({ code: 0, stderr: '' });
    expect(rebuilt.stdout).toMatch(/^rebuilt agents: \d+ events, up to position \d+$/m);
    expect(rebuilt.stdout).toMatch(/^rebuilt audit-log: \d+ events, up to position \d+$/m);
    const out = path.join(tmp.dir, 'exported');
    const exported = await cli(['agents:export', out]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'reviewer.json'), 'utf8'))).toMatchObject({
      id: 'reviewer',
      description: 'reviews, after a restart',
    });
    expect(fs.existsSync(path.join(tmp.dir, 'unused.db'))).toBe(false);

    await start();
    expect((await http('GET', '/api/agents/reviewer')).body).toMatchObject({ id: 'reviewer', version: 2 });
  });

  describe('a database it cannot use stops the start with one line naming it, without the password', () => {
    const refusalFor = async (target: string): Promise<string> => {
      try {
        const app = await startTestApp({ postgres: { url: target, poolSize: 2 } }, tmp.dir);
        apps.push(app);
      } catch (error) {
        return startupRefusal(error);
      }
      throw new Error('the app started');
    };

    it('a database that does not exist', async () => {
      const missing = url.replace(/\/[^/]+$/, '/no_such_database');
      expect(await refusalFor(missing)).toBe(
        `Cannot connect to PostgreSQL at postgres://postgres:***@127.0.0.1:${server.port}/no_such_database (SWITCHBOARD_DATABASE_URL): database "no_such_database" does not exist`,
      );
    });

    it('migrations that fail: all of them rolled back', async () => {
      const occupied = (await server.createDatabase()).replace('postgres://postgres@', `postgres://postgres:${PASSWORD}@`);
      const admin = new Client({ connectionString: occupied });
      await admin.connect();
      try {
        // Something else's table where the first migration creates its own.
        await admin.query('CREATE TABLE events (something text)');
        const line = await refusalFor(occupied);
        expect(line).toMatch(
          /^Migrations failed on PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\w+ \(SWITCHBOARD_DATABASE_URL\); its pending migrations were rolled back: relation "events" already exists$/,
        );
        expect(line).not.toContain(PASSWORD);
        const { rows } = await admin.query(`SELECT to_regclass('streams') AS streams`);
        expect(rows).toEqual([{ streams: null }]);
      } finally {
        await admin.end();
      }
    });
  });
});

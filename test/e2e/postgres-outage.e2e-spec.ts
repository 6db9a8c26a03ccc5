import { Client } from 'pg';
import { GraphqlSubscription, graphqlWs } from '../fixtures/graphql-client';
import { type PostgresServer, startPostgresServer } from '../fixtures/postgres-server';
import { type ServiceProcess, startServiceProcess } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

/**
 * issue 22: a PostgreSQL outage under load. While clients create agents and read the library, the
 * runs and the log over REST and GraphQL, every connection of the service is terminated, then the
 * server is stopped (`pg_ctl stop -m fast`) and started again on the same data. The service processes
 * live through it and recover by themselves: every answer meanwhile is a success or a 503
 * `database_unavailable` (never a 500, never a dropped connection), /health/ready says 503 while the
 * database is away and 200 once it is back, every acknowledged create is there afterwards, and
 * subscriptions opened before the outage deliver what is written after it, on every instance.
 */

jest.setTimeout(90_000);

const WORKERS_PER_INSTANCE = 3;
/** Load before the backends are terminated, between that and the stop, and with the server down. */
const WARM_MS = 800;
const TERMINATED_MS = 800;
const DOWN_MS = 2_000;
/** Shorter than the outage: every lease looks expired when the database is back. */
const LEASE_TTL_MS = 1_500;

interface Instance extends ServiceProcess {
  name: string;
}

interface Answer {
  what: string;
  status: number;
  code?: string;
  retryAfter?: string | null;
}

const agent = (id: string) => ({ id, name: `Agent ${id}`, system_message: { mode: 'append', content: `You are ${id}.` } });

describe('a PostgreSQL outage under load (issue 22)', () => {
  const tmp = makeTempDir();
  let server: PostgresServer;
  const instances: Instance[] = [];

  beforeAll(async () => {
    server = await startPostgresServer();
  }, 60_000);

  afterEach(async () => {
    for (const instance of instances.splice(0)) {
      instance.child.kill('SIGTERM');
      await instance.exited.catch(() => undefined);
    }
  });

  afterAll(() => {
    server?.stop();
    tmp.cleanup();
  });

  async function start(name: string, databaseUrl: string): Promise<Instance> {
    const service = await startServiceProcess(
      {
        SWITCHBOARD_DATABASE_URL: databaseUrl,
        SWITCHBOARD_DATABASE_POOL_SIZE: '4',
        SWITCHBOARD_LEASE_HEARTBEAT_MS: '500',
        SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS),
        COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1',
        COPILOT_PROVIDER_API_KEY: 'test',
        COPILOT_CLI_HOME: `${tmp.dir}/copilot-home-${name}`,
      },
      { exitWithinMs: 300_000 },
    );
    const instance: Instance = { name, ...service };
    instances.push(instance);
    return instance;
  }

  const readiness = async (instance: Instance): Promise<number> => (await fetch(`${instance.baseUrl}/health/ready`)).status;

  async function leaseIds(databaseUrl: string): Promise<string[]> {
    const admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      return (await admin.query<{ id: string }>('SELECT instance_id AS id FROM instance_leases ORDER BY instance_id')).rows.map((r) => r.id);
    } finally {
      await admin.end();
    }
  }

  /** Ends every connection of the service's (pool, LISTEN) from an admin connection, as an operator would. */
  async function terminateServiceBackends(databaseUrl: string): Promise<number> {
    const admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'switchboard%'`);
      return rows.length;
    } finally {
      await admin.end();
    }
  }

  async function outageUnderLoad(names: string[]) {
    const databaseUrl = await server.createDatabase(`outage_${names.length}`);
    for (const name of names) await start(name, databaseUrl);
    for (const instance of instances) await waitUntil(async () => (await readiness(instance)) === 200, `${instance.name} ready`, 30_000);

    // A subscription on each instance, live before the outage: it must go on delivering after it.
    const sockets = instances.map((instance) => graphqlWs(instance.baseUrl));
    const subscriptions = sockets.map((ws) =>
      new GraphqlSubscription<{ agentLibraryChanged: { agentId: string } }>(ws, 'subscription { agentLibraryChanged { agentId change } }').start(),
    );
    let probe = 0;
    const prober = setInterval(() => void fetch(`${instances[0].baseUrl}/api/agents`, post(agent(`probe-${++probe}`))).catch(() => undefined), 200);
    try {
      await Promise.all(subscriptions.map((s) => s.waitFor((values) => values.length > 0, 'a first library change')));
    } finally {
      clearInterval(prober);
    }

    const leasesBefore = await leaseIds(databaseUrl);
    expect(leasesBefore).toHaveLength(names.length);
    const answers: Answer[] = [];
    const dropped: string[] = [];
    const acknowledged: string[] = [];
    const readyDuringOutage: number[] = [];
    let loading = true;
    let created = 0;

    /** One request; a dropped connection or an unreadable answer is recorded, never thrown. */
    async function call(instance: Instance, what: string, path: string, init?: RequestInit): Promise<{ status: number; body: unknown } | undefined> {
      try {
        const response = await fetch(`${instance.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(20_000) });
        const text = await response.text();
        const body = text ? (JSON.parse(text) as { code?: string; errors?: Array<{ extensions?: { code?: string; statusCode?: number } }> }) : undefined;
        const graphqlError = body?.errors?.[0]?.extensions;
        answers.push({
          what: `${instance.name} ${what}`,
          status: graphqlError?.statusCode ?? response.status,
          code: graphqlError?.code ?? body?.code,
          retryAfter: response.headers.get('retry-after'),
        });
        return { status: response.status, body };
      } catch (error) {
        dropped.push(`${instance.name} ${what}: ${(error as Error).message} ${((error as Error).cause as Error | undefined)?.message ?? ''}`);
        await sleep(100); // a dead process refuses at once: no busy loop
        return undefined;
      }
    }

    async function worker(instance: Instance, n: number): Promise<void> {
      while (loading) {
        const id = `${instance.name}-${n}-${++created}`;
        const made = await call(instance, 'POST /api/agents', '/api/agents', post(agent(id)));
        if (made?.status === 201) acknowledged.push(id);
        await call(instance, 'GET /api/agents', '/api/agents');
        await call(instance, 'GET /api/runs', '/api/runs?limit=20');
        await call(instance, 'GET /api/events', '/api/events?limit=20');
        await call(instance, 'POST /graphql agents', '/graphql', post({ query: '{ agents { id } }' }));
      }
    }

    const load = instances.flatMap((instance) => Array.from({ length: WORKERS_PER_INSTANCE }, (_, n) => worker(instance, n)));
    let acknowledgedBeforeRecovery: number;
    try {
      await sleep(WARM_MS);
      expect(await terminateServiceBackends(databaseUrl)).toBeGreaterThanOrEqual(names.length * 2);
      await sleep(TERMINATED_MS);
      await server.shutDown();
      const downUntil = Date.now() + DOWN_MS;
      while (Date.now() < downUntil) {
        for (const instance of instances) readyDuringOutage.push(await readiness(instance).catch(() => 0));
        await sleep(200);
      }
      await server.start();
      // Recovers by itself: ready again, with nobody restarting anything.
      for (const instance of instances) {
        await waitUntil(
          async () => {
            if (instance.child.exitCode !== null)
              throw new Error(`${instance.name} exited (code ${instance.child.exitCode}); dropped: ${dropped.slice(0, 3).join('; ')}`);
            return (await readiness(instance).catch(() => 0)) === 200;
          },
          `${instance.name} ready again`,
          20_000,
        );
      }
      acknowledgedBeforeRecovery = acknowledged.length;
      await sleep(500);
    } finally {
      loading = false;
      await Promise.all(load);
    }

    // The processes live.
    for (const instance of instances)
      expect({ instance: instance.name, exitCode: instance.child.exitCode }).toEqual({ instance: instance.name, exitCode: null });
    expect(dropped).toEqual([]);
    // Every answer a success or a retryable 503; the outage was seen (or this proves nothing).
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((a) => !(a.status < 300 || a.status === 503))).toEqual([]);
    expect(refused.filter((a) => a.code !== 'database_unavailable')).toEqual([]);
    expect(refused.filter((a) => !a.what.includes('graphql') && a.retryAfter === null)).toEqual([]);
    expect(readyDuringOutage).toContain(503);
    expect(readyDuringOutage).not.toContain(200);
    // Writes went on before and after.
    expect(acknowledgedBeforeRecovery).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(acknowledgedBeforeRecovery);

    // Nothing acknowledged is lost: each create is in the library of every instance.
    for (const instance of instances) {
      const listed = await call(instance, 'GET /api/agents', '/api/agents');
      const ids = new Set(((listed?.body as { agents: Array<{ id: string }> }).agents ?? []).map((a) => a.id));
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    }

    // An outage is not a death: no instance took another's lease (a lost lease joins again under a fresh id).
    await sleep(LEASE_TTL_MS);
    expect(await leaseIds(databaseUrl)).toEqual(leasesBefore);

    // Subscriptions opened before the outage deliver a change made after it, on every instance.
    expect((await call(instances[0], 'POST /api/agents', '/api/agents', post(agent('after-the-outage'))))?.status).toBe(201);
    await Promise.all(
      subscriptions.map((s) =>
        s.waitFor((values) => values.some((v) => v.agentLibraryChanged.agentId === 'after-the-outage'), 'the change made after the outage'),
      ),
    );
    for (const s of subscriptions) expect(s.errors).toEqual([]);
    subscriptions.forEach((s) => s.stop());
    for (const ws of sockets) void ws.dispose();
  }

  it('one instance lives through terminated connections and a server restart, and recovers by itself', async () => {
    await outageUnderLoad(['a']);
  });

  it('two instances on one database both live through it (high availability is not a total outage)', async () => {
    await outageUnderLoad(['a', 'b']);
  });
});

function post(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

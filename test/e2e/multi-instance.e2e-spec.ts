import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type PostgresServer, startPostgresServer } from '../fixtures/postgres-server';
import { hasExited } from '../fixtures/process-tree';
import { numberedTaskRules, snapshotReadModels, taskPrompt, taskResult } from '../fixtures/crash-workload';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { collectUntilExit, type ServiceProcess, spawnTs, startServiceProcess } from '../fixtures/service-process';
import { SseClient } from '../fixtures/sse-client';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

/**
 * issue 15, several instances: two Switchboard processes, each with its own real Copilot CLI, on one
 * PostgreSQL database. Agents created on A are read and watched on B; background runs started on A
 * are cut off by a SIGKILL of A; once A's lease expires B records them interrupted, and they are
 * resumed and completed on B. Nothing acknowledged is lost or duplicated, and the read models equal
 * a rebuild from the log.
 *
 * Set MULTI_INSTANCE_REPORT=<file> for the figures as JSON (nothing is printed).
 */

const RUNS = 20;
const DELAYS_MS = [300, 1000, 4000, 8000];
const LEASE_TTL_MS = 3000;

interface Instance extends ServiceProcess {
  name: string;
}

describe('two instances on one PostgreSQL database: read anywhere, take over after a kill -9', () => {
  const model = new ScriptedModelServer();
  const tmp = makeTempDir();
  let server: PostgresServer;
  let databaseUrl = '';
  const instances = new Map<string, Instance>();

  beforeAll(async () => {
    server = await startPostgresServer();
    databaseUrl = await server.createDatabase('multi');
    await model.start();
    model.setScript(numberedTaskRules('MULTI_WORKER', DELAYS_MS));
  }, 120_000);

  afterAll(async () => {
    for (const instance of instances.values()) {
      instance.child.kill('SIGTERM');
      await instance.exited.catch(() => undefined);
    }
    await model.stop();
    server?.stop();
    tmp.cleanup();
  });

  async function start(name: string): Promise<Instance> {
    const service = await startServiceProcess(
      {
        SWITCHBOARD_DATABASE_URL: databaseUrl,
        SWITCHBOARD_DATABASE_POOL_SIZE: '4',
        SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS),
        SWITCHBOARD_LEASE_HEARTBEAT_MS: '500',
        ...model.providerEnv(),
        // One CLI home for both, as on a shared volume: a session's history is there for whichever CLI resumes it.
        COPILOT_CLI_HOME: path.join(tmp.dir, 'copilot-home'),
      },
      { readyPath: '/health', readyWithinMs: 90_000, exitWithinMs: 900_000 },
    );
    const instance: Instance = { name, ...service };
    instances.set(name, instance);
    return instance;
  }

  const on = (name: string) => jsonHttp(() => (instances.get(name) as Instance).baseUrl);
  const allRuns = async (name: string): Promise<Json[]> => (await on(name)('GET', '/api/runs?limit=500')).body.runs;
  const count = (runs: Json[], status: string) => runs.filter((r) => r.status === status).length;

  async function sql<T = Record<string, unknown>>(text: string): Promise<T[]> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Events that must be there once: a run's start, a run's end per launch, a CLI event, any event id. */
  async function duplicatedEvents(): Promise<number> {
    const extra = async (query: string) => (await sql<{ n: string }>(query)).reduce((sum, row) => sum + Number(row.n) - 1, 0);
    return (
      (await extra(`SELECT count(*) n FROM events WHERE type = 'run.started' GROUP BY stream_id HAVING count(*) > 1`)) +
      (await extra(
        `SELECT count(*) n FROM events WHERE stream_id LIKE 'run-%' AND type IN ('run.completed','run.failed','run.stopped','run.interrupted')
         GROUP BY stream_id, data->>'epoch' HAVING count(*) > 1`,
      )) +
      (await extra(`SELECT count(*) n FROM events WHERE data ? 'cliEventId' GROUP BY stream_id, data->>'cliEventId' HAVING count(*) > 1`)) +
      (await extra(`SELECT count(*) n FROM events GROUP BY event_id HAVING count(*) > 1`))
    );
  }

  const readModels = () => snapshotReadModels(sql);

  it('serves one log from both, and B takes over A’s runs after A is killed', async () => {
    await start('a');
    await start('b');
    const a = on('a');
    const b = on('b');

    // The library is the database's: written on A, read on B at once (inline projection, one transaction).
    expect(
      (await a('POST', '/api/agents', { id: 'worker', name: 'Worker', system_message: { mode: 'append', content: 'MULTI_WORKER answers.' } })).status,
    ).toBe(201);
    expect((await b('GET', '/api/agents/worker')).body).toMatchObject({ id: 'worker', name: 'Worker' });
    const health = await Promise.all([a('GET', '/health'), b('GET', '/health')]);
    const instanceIds = health.map((h) => h.body.instance?.id as string);
    expect(new Set(instanceIds).size).toBe(2);

    const acknowledged = new Map<string, number>();
    for (let n = 0; n < RUNS; n++) {
      const response = await a('POST', '/api/runs', { agentId: 'worker', prompt: taskPrompt(n), background: true });
      expect(response.status).toBe(201);
      acknowledged.set(response.body.runId, n);
    }

    // B watches a run A executes: the run's session stream, live over SSE on B.
    const slowest = [...acknowledged].find(([, n]) => n % DELAYS_MS.length === DELAYS_MS.length - 1) as [string, number];
    const watch = await new SseClient().open(`${instances.get('b')?.baseUrl}/api/sessions/sub-agent-${slowest[0]}/events`);
    expect(watch.status).toBe(200);

    // A request for a run A holds, sent to B, names A.
    const elsewhere = await b('POST', `/api/runs/${slowest[0]}/stop`, {});
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body).toMatchObject({ code: 'owned_by_other_instance' });
    expect(elsewhere.body.message).toContain(instanceIds[0]);

    const before = await waitUntil(
      async () => {
        const runs = await allRuns('b');
        return runs.length === RUNS && count(runs, 'completed') >= 5 && count(runs, 'running') >= 5 && runs;
      },
      'some runs completed and some still running on A',
      120_000,
    );
    await watch.waitFor((event) => event.data?.type === 'session.created', 'B to see the run’s session created', 30_000);
    const killedAt = Date.now();
    const cliPid = (await a('GET', '/health')).body.copilotCli?.pid as number | undefined;
    (instances.get('a') as Instance).child.kill('SIGKILL');
    await (instances.get('a') as Instance).exited;
    instances.delete('a');
    if (cliPid) await waitUntil(() => hasExited(cliPid), 'A’s CLI to follow A', 15_000);

    // B takes A's running runs over once A's lease has expired: recorded interrupted, nothing lost.
    const afterTakeover = await waitUntil(
      async () => {
        const runs = await allRuns('b');
        return count(runs, 'running') === 0 && runs;
      },
      'B to record A’s runs interrupted',
      60_000,
    );
    const takeoverMs = Date.now() - killedAt;
    expect(afterTakeover.filter((r) => r.status !== 'completed' && r.status !== 'interrupted')).toEqual([]);
    const completedBefore = before.filter((r) => r.status === 'completed');
    for (const run of completedBefore) expect(afterTakeover.find((r) => r.runId === run.runId)).toMatchObject({ status: 'completed', output: run.output });
    const lost = [...acknowledged.keys()].filter((id) => !afterTakeover.some((r) => r.runId === id)).length;
    expect(lost).toBe(0);
    expect(await duplicatedEvents()).toBe(0);

    const interrupted = afterTakeover.filter((r) => r.status === 'interrupted');
    expect(interrupted.length).toBeGreaterThan(0);
    for (const run of interrupted) {
      const resumed = await b('POST', `/api/runs/${run.runId}/resume`, {});
      expect(resumed.status).toBe(200);
    }
    const final = await waitUntil(
      async () => {
        const runs = await allRuns('b');
        return count(runs, 'completed') === RUNS && runs;
      },
      'every run to complete on B',
      240_000,
    );
    const wrongOutputs = final.filter((r) => r.output !== taskResult(acknowledged.get(r.runId) as number)).length;
    expect(wrongOutputs).toBe(0);
    const duplicated = await duplicatedEvents();
    expect(duplicated).toBe(0);
    // The watch on B saw the run through to its end, whichever instance ran it.
    await watch.waitFor((event) => event.data?.type === 'cli.session.idle', 'B to see the run’s turn end', 60_000);
    await watch.close();

    // The read models equal a rebuild from the log (taken with the service stopped).
    const last = instances.get('b') as Instance;
    last.child.kill('SIGTERM');
    expect((await last.exited).code).toBe(0);
    instances.delete('b');
    const projected = await readModels();
    const rebuild = await collectUntilExit(
      spawnTs('src/cli/rebuild-projection.cli.ts', ['--all'], { SWITCHBOARD_DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }),
      180_000,
    );
    expect(rebuild.code).toBe(0);
    expect(await readModels()).toEqual(projected);

    if (process.env.MULTI_INSTANCE_REPORT) {
      const figures = {
        runs: RUNS,
        completedBeforeKill: completedBefore.length,
        runningAtKill: count(before, 'running'),
        interruptedByTakeover: interrupted.length,
        takeoverMs,
        leaseTtlMs: LEASE_TTL_MS,
        lost,
        duplicatedEvents: duplicated,
        wrongOutputs,
      };
      fs.writeFileSync(process.env.MULTI_INSTANCE_REPORT, JSON.stringify(figures, null, 2));
    }
  }, 900_000);
});

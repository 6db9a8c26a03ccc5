import * as path from 'node:path';
import { Client } from 'pg';
import { dueFiringId } from '../../src/schedules/firing-id';
import { dueTimesAfter } from '../../src/schedules/schedule-timing';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type PostgresServer, startPostgresServer } from '../fixtures/postgres-server';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { type ServiceProcess, startServiceProcess } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

/** The schedule fires every second for this long. */
const WINDOW_MS = 30_000;
const LEASE_TTL_MS = 3_000;

/**
 * issue 30, exactly once across instances: two Switchboard processes on one PostgreSQL database, both
 * firing a schedule due every second for 30 s; one is killed -9 halfway. Counted per due time from
 * the log and the runs: every due time of the window has exactly one firing, which started exactly
 * one run; no run without its firing, none doubled, none lost. What is asserted is counts, never
 * latency: a loaded machine only moves when a firing happens, within the minute's on-time grace.
 */
describe('a schedule every second on two instances, one killed -9 halfway: every due time has exactly one run', () => {
  const model = new ScriptedModelServer();
  const tmp = makeTempDir();
  let server: PostgresServer;
  let databaseUrl = '';
  const instances: ServiceProcess[] = [];

  beforeAll(async () => {
    server = await startPostgresServer();
    databaseUrl = await server.createDatabase('schedules_two');
    await model.start();
    model.setScript([{ name: 'scheduled run', systemIncludes: 'EVERY_SECOND_P', answer: { text: 'TICK_DONE' } }]);
  }, 120_000);

  afterAll(async () => {
    for (const instance of instances) {
      instance.child.kill('SIGTERM');
      await instance.exited.catch(() => undefined);
    }
    await model.stop();
    server?.stop();
    tmp.cleanup();
  });

  const start = async (): Promise<ServiceProcess> => {
    const service = await startServiceProcess(
      {
        SWITCHBOARD_DATABASE_URL: databaseUrl,
        SWITCHBOARD_DATABASE_POOL_SIZE: '4',
        SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS),
        SWITCHBOARD_LEASE_HEARTBEAT_MS: '500',
        SWITCHBOARD_SCHEDULER_TICK_MS: '250',
        // The schedule below fires every second: below the default minimum of 60 s between firings.
        SWITCHBOARD_SCHEDULE_MIN_INTERVAL: '1',
        ...model.providerEnv(),
        COPILOT_CLI_HOME: path.join(tmp.dir, 'copilot-home'),
      },
      { readyPath: '/health', readyWithinMs: 90_000, exitWithinMs: 600_000 },
    );
    instances.push(service);
    return service;
  };

  async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  it('counts one firing and one run per due time, none doubled, none lost', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const onA = jsonHttp(() => a.baseUrl);
    const onB = jsonHttp(() => b.baseUrl);
    const agent = { id: 'every-second', name: 'Every second', system_message: { mode: 'append', content: 'EVERY_SECOND_P you run every second.' } };
    expect((await onA('POST', '/api/agents', agent)).status).toBe(201);

    const endsAt = new Date(Date.now() + WINDOW_MS).toISOString();
    const created = await onA('POST', '/api/schedules', { agentId: 'every-second', prompt: 'Tick.', cron: '* * * * * *', overlap: 'allow', endsAt });
    expect(created.status).toBe(201);
    const schedule = created.body;
    const dueTimes = dueTimesAfter({ cron: '* * * * * *', at: null, timeZone: 'UTC', endsAt }, new Date(schedule.createdAt), 1_000);
    expect(dueTimes.length).toBeGreaterThanOrEqual(WINDOW_MS / 1000 - 1);

    // Halfway through the window, A dies without a word: its claims in flight are B's to complete.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS / 2));
    a.child.kill('SIGKILL');
    await a.exited;

    const expected = new Set(dueTimes.map((due) => dueFiringId(schedule.id, due)));
    const settled = await waitUntil(
      async () => {
        if (Date.now() < Date.parse(endsAt)) return false;
        const firings = (await onB('GET', `/api/schedules/${schedule.id}/firings?limit=200`)).body.firings as Json[];
        if (firings.some((f) => f.status === 'starting' || f.status === 'retrying')) return false;
        // Every due time there, or long enough past the window (a takeover included) that a missing one is lost.
        const complete = [...expected].every((id) => firings.some((f) => f.id === id));
        return (complete || Date.now() > Date.parse(endsAt) + 5 * LEASE_TTL_MS) && firings;
      },
      'no claim of the window left starting or retrying',
      WINDOW_MS + 60_000,
    );

    // None lost, none extra: the firings are exactly the window's due times, each started (no run refused, none skipped).
    expect(settled.map((f) => f.id).sort()).toEqual([...expected].sort());
    expect(settled.filter((f) => f.status !== 'started')).toEqual([]);

    // From the log: each firing stream has one first event (one claim), and one firing_started.
    const firstEvents = await sql<{ stream_id: string; claims: string; started: string }>(
      `SELECT stream_id, count(*) FILTER (WHERE type = 'schedule.firing_claimed') AS claims, count(*) FILTER (WHERE type = 'schedule.firing_started') AS started
       FROM events WHERE stream_id LIKE 'schedule_firing-%' GROUP BY stream_id`,
    );
    expect(firstEvents).toHaveLength(expected.size);
    expect(firstEvents.filter((e) => Number(e.claims) !== 1 || Number(e.started) !== 1)).toEqual([]);

    // Runs: one run.started per firing, under the run id its claim named; no scheduled run without a firing.
    const runsStarted = await sql<{ run_id: string; firing_id: string }>(
      `SELECT data->>'runId' AS run_id, data->'scheduledBy'->>'firingId' AS firing_id FROM events WHERE type = 'run.started' AND data->'scheduledBy'->>'scheduleId' = $1`,
      [schedule.id],
    );
    const runsPerFiring = new Map<string, string[]>();
    for (const run of runsStarted) runsPerFiring.set(run.firing_id, [...(runsPerFiring.get(run.firing_id) ?? []), run.run_id]);
    expect([...runsPerFiring.keys()].sort()).toEqual([...expected].sort());
    expect([...runsPerFiring.values()].filter((runs) => runs.length !== 1)).toEqual([]);
    for (const firing of settled) expect(runsPerFiring.get(firing.id)).toEqual([firing.runId]);
    const runRows = await sql<{ n: string }>(`SELECT count(*) AS n FROM runs WHERE scheduled_by LIKE $1`, [`%${schedule.id}%`]);
    expect(Number(runRows[0].n)).toBe(expected.size);
  }, 240_000);
});

import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AppStore, appStoreTargets } from '../fixtures/app-store-targets';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { numberedTaskRules, snapshotReadModels, taskPrompt, taskResult } from '../fixtures/crash-workload';
import { hasExited } from '../fixtures/process-tree';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { collectUntilExit, type ServiceProcess, spawnTs, startServiceProcess } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

/**
 * spec: sub-agent-delegation, recovery. Switchboard runs as its own process with the real Copilot CLI;
 * 50 background runs are started (30 on PostgreSQL, see RUNS_ON), their scripted model answers slowly
 * (0.5 s to 8 s), and the service is SIGKILLed while some have completed and others are still waiting;
 * then again while the interrupted ones are being resumed. After each restart: every acknowledged run
 * is there, completed with its output intact or interrupted; no event is duplicated; the read models
 * equal a rebuild from the log; and resuming the interrupted runs completes them. On a SQLite file and
 * on a PostgreSQL database.
 *
 * A restart is a new process under a new instance id. On SQLite it records the killed one's runs
 * interrupted as it starts (one file, one instance: any other lease is a previous incarnation). On
 * PostgreSQL the killed instance could be another live one until its lease expires, so its runs are
 * recorded interrupted once it has: by the restart's own recovery, or by its lease monitor's takeover
 * if it started before that. The lease TTL is short here so that takes a second, not the default ten.
 *
 * Set CRASH_DELEGATION_REPORT=<file> for the figures as JSON, by database (nothing is printed).
 */

/**
 * Background runs per database. Fewer on PostgreSQL, to keep the file's time (the SQLite case alone
 * takes about a minute, mostly the real CLIs of the runs): 30 still leave both kills where they must
 * be (10 completed and 5 running before the first, 5 more completed and 5 still resuming before the
 * second), with the five answer delays six runs each.
 */
const RUNS_ON: Record<string, number> = { SQLite: 50, PostgreSQL: 30 };
const DELAYS_MS = [500, 1000, 3000, 5000, 8000];
/** More than twice the heartbeat (the config refuses less); see above for why it is short. */
const LEASE = { SWITCHBOARD_LEASE_HEARTBEAT_MS: '400', SWITCHBOARD_LEASE_TTL_MS: '1500' };

/** Each database's figures, written together. */
const reports: Record<string, unknown> = {};
const RUN_ENDS = new Set(['run.completed', 'run.failed', 'run.stopped', 'run.interrupted']);

type Service = ServiceProcess;

interface KillRound {
  completedBeforeKill: number;
  runningBeforeKill: number;
  interruptedAfterRestart: number;
  lost: number;
  duplicatedEvents: number;
  wrongOutputs: number;
  cliOutlivedService: boolean;
}

const targets = appStoreTargets().map(([name, target]) => ({ name, target, runs: RUNS_ON[name] }));

describe.each(targets)(
  'delegation crash recovery: $runs background runs, SIGKILL, restart ($name)',
  ({ name: storeName, target: storeTarget, runs: RUNS }) => {
    const model = new ScriptedModelServer();
    const tmp = makeTempDir();
    let store: AppStore;
    let service: Service | undefined;
    const live = new Set<ChildProcess>();

    beforeAll(async () => {
      store = await storeTarget(tmp.dir);
      await model.start();
      model.setScript(numberedTaskRules('CRASH_WORKER', DELAYS_MS));
    }, 60_000); // a PostgreSQL target starts a server of its own (initdb): seconds on a busy machine

    afterAll(async () => {
      // A clean stop lets the service stop its CLI, which otherwise still writes into the folder removed below.
      if (service) {
        service.child.kill('SIGTERM');
        await service.exited.catch(() => undefined);
      }
      for (const child of live) child.kill('SIGKILL');
      await model.stop();
      tmp.cleanup();
    });

    async function startService(): Promise<Service> {
      const service = await startServiceProcess(
        { ...store.env, ...LEASE, ...model.providerEnv(), COPILOT_CLI_HOME: path.join(tmp.dir, 'copilot-home') },
        { readyPath: '/health' },
      );
      live.add(service.child);
      service.child.on('exit', () => live.delete(service.child));
      return service;
    }

    const http = (...args: Parameters<ReturnType<typeof jsonHttp>>) => jsonHttp(() => (service as Service).baseUrl)(...args);
    const allRuns = async (): Promise<Json[]> => (await http('GET', '/api/runs?limit=500')).body.runs;
    const count = (runs: Json[], status: string) => runs.filter((r) => r.status === status).length;

    /** SIGKILL once `enough` says so; the CLI it spawned gets EOF on stdin and should follow it. */
    async function killWhen(enough: (runs: Json[]) => boolean): Promise<{ runs: Json[]; cliOutlivedService: boolean }> {
      const runs = await waitUntil(
        async () => {
          const now = await allRuns();
          return enough(now) && now;
        },
        'the moment to kill',
        120_000,
      );
      const cliPid = (await http('GET', '/health')).body.copilotCli?.pid as number | undefined;
      (service as Service).child.kill('SIGKILL');
      await (service as Service).exited;
      service = undefined;
      let cliOutlivedService = false;
      if (cliPid) {
        try {
          await waitUntil(() => hasExited(cliPid), 'the orphaned CLI to exit', 10_000);
        } catch {
          cliOutlivedService = true;
          process.kill(-cliPid, 'SIGKILL');
        }
      }
      return { runs, cliOutlivedService };
    }

    /** What must hold after every restart; returns the figures of the round. */
    async function checkLog(acknowledged: Map<string, number>, runs: Json[]): Promise<Pick<KillRound, 'lost' | 'duplicatedEvents' | 'wrongOutputs'>> {
      const byId = new Map(runs.map((r) => [r.runId, r]));
      const lost = [...acknowledged.keys()].filter((id) => !byId.has(id)).length;
      const wrongOutputs = runs.filter((r) => r.status === 'completed' && r.output !== taskResult(acknowledged.get(r.runId) as number)).length;
      return { lost, duplicatedEvents: await duplicatedEvents(), wrongOutputs };
    }

    /**
     * Events that must be there once: a run's start, a run's end per launch, a CLI event, any event id.
     * Counted here, not in SQL: the two databases spell JSON access differently (json_extract, ->>).
     */
    async function duplicatedEvents(): Promise<number> {
      const events = await store.query('SELECT event_id, stream_id, type, data FROM events');
      const seen = new Map<string, number>();
      const once = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
      for (const event of events) {
        const data: Json = typeof event.data === 'string' ? JSON.parse(event.data) : event.data;
        const stream = String(event.stream_id);
        once(`event ${String(event.event_id)}`);
        if (event.type === 'run.started') once(`start ${stream}`);
        if (stream.startsWith('run-') && RUN_ENDS.has(String(event.type))) once(`end ${stream} ${data.epoch}`);
        if (data.cliEventId !== undefined && data.cliEventId !== null) once(`cli ${stream} ${data.cliEventId}`);
      }
      return [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
    }

    const readModels = () => snapshotReadModels((sql) => store.query(sql));

    it('keeps every acknowledged run, completed with its output or interrupted, and completes them on resume', async () => {
      const rounds: KillRound[] = [];
      service = await startService();
      expect(
        (await http('POST', '/api/agents', { id: 'worker', name: 'Worker', system_message: { mode: 'append', content: 'CRASH_WORKER answers.' } })).status,
      ).toBe(201);

      const acknowledged = new Map<string, number>();
      for (let batch = 0; batch < RUNS; batch += 10) {
        await Promise.all(
          Array.from({ length: 10 }, async (_, i) => {
            const n = batch + i;
            const response = await http('POST', '/api/runs', { agentId: 'worker', prompt: taskPrompt(n), background: true });
            expect(response.status).toBe(201);
            acknowledged.set(response.body.runId, n);
          }),
        );
      }

      // Round 1: killed while runs are in flight. Round 2: killed while the interrupted ones are resuming.
      for (let round = 0; round < 2; round++) {
        const { runs: before, cliOutlivedService } = await killWhen((now) => {
          const pending = count(now, 'running');
          return now.length === RUNS && count(now, 'completed') >= (round === 0 ? 10 : rounds[0].completedBeforeKill + 5) && pending >= 5;
        });
        service = await startService();
        // None left running (on PostgreSQL once the killed instance's lease expired, see above).
        const after = await waitUntil(
          async () => {
            const now = await allRuns();
            return count(now, 'running') === 0 && now;
          },
          'the killed instance’s runs to be recorded interrupted',
          60_000,
        );
        expect(after.filter((r) => r.status !== 'completed' && r.status !== 'interrupted')).toEqual([]);
        const figures = await checkLog(acknowledged, after);
        expect(figures).toEqual({ lost: 0, duplicatedEvents: 0, wrongOutputs: 0 });
        const completedBefore = before.filter((r) => r.status === 'completed').map((r) => r.runId);
        // A run acknowledged as completed stays completed, with the same output.
        for (const id of completedBefore)
          expect(after.find((r) => r.runId === id)).toMatchObject({ status: 'completed', output: taskResult(acknowledged.get(id) as number) });
        rounds.push({
          completedBeforeKill: completedBefore.length,
          runningBeforeKill: count(before, 'running'),
          interruptedAfterRestart: count(after, 'interrupted'),
          ...figures,
          cliOutlivedService,
        });
        expect(cliOutlivedService).toBe(false);

        // The read models equal a rebuild from the log (taken with the service stopped).
        service.child.kill('SIGTERM');
        expect((await service.exited).code).toBe(0);
        const projected = await readModels();
        const rebuild = await collectUntilExit(spawnTs('src/cli/rebuild-projection.cli.ts', ['--all'], { ...store.env, LOG_LEVEL: 'warn' }), 120_000);
        expect(rebuild.code).toBe(0);
        expect(await readModels()).toEqual(projected);
        service = await startService();

        for (const run of after.filter((r) => r.status === 'interrupted')) {
          const resumed = await http('POST', `/api/runs/${run.runId}/resume`, {});
          expect(resumed.status).toBe(200);
          expect(resumed.body).toMatchObject({ runId: run.runId, status: 'running' });
        }
      }

      const final = await waitUntil(
        async () => {
          const now = await allRuns();
          return count(now, 'completed') === RUNS && now;
        },
        'every resumed run to complete',
        180_000,
      );
      expect(await checkLog(acknowledged, final)).toEqual({ lost: 0, duplicatedEvents: 0, wrongOutputs: 0 });
      const resumedRuns = final.filter((r) => r.epoch > 1).length;
      expect(resumedRuns).toBeGreaterThan(0);

      if (process.env.CRASH_DELEGATION_REPORT) {
        reports[storeName] = { runs: RUNS, kills: rounds.length, rounds, resumedRuns };
        fs.writeFileSync(process.env.CRASH_DELEGATION_REPORT, JSON.stringify(reports, null, 2));
      }
    }, 600_000);
  },
);

/**
 * What routing model calls through Switchboard adds to them (issue 25).
 *
 *   npm run bench:model-calls
 *
 * Two real Switchboard apps (in this process, each on its own SQLite file with its own real Copilot
 * CLI) talk to one scripted model server (a child process, answering at once): `direct` runs with
 * SWITCHBOARD_MODEL_ROUTE=off (the CLI calls the model itself, as before issue 25), `routed` with the
 * default (every call handed to Switchboard, forwarded and recorded as a model_call stream). The same
 * turns, sent over REST, alternate between the two in rounds so that the machine's load falls on both
 * alike. Each turn is one model call (checked against the model server's count); it is timed from the
 * REST send to the CLI's `session.idle` (the call, per turn) and to its first `assistant.message_delta`
 * (time to first token), as the app receives them from the CLI. A streamed answer of CHUNKS chunks
 * gives the chunk throughput. At 1 session and at 16 sessions sending at once. During the 16-session
 * phase `/health/live` of the routed app is asked over HTTP every 50 ms while the routed app's turns run
 * (the event loop kept free; not during the direct app's turns: both apps share this process's loop).
 *
 * The floor (issue 41): the CLI hands a routed call to its client as JSON-RPC frames over stdio and takes
 * the answer back the same way, which costs the CLI time whoever the client is. So the same turns also run,
 * in the same rounds, on the bare `@github/copilot-sdk` driving its own CLI (bench/sdk-model-leg.ts): the
 * CLI calling the model itself, and every request handed to the SDK's own pass-through request handler.
 * "Switchboard over the hand-off" is Switchboard's added minus the SDK's, per percentile: what Switchboard's
 * route costs beyond what handing a call to any client costs. Its targets are issue 41's (2 ms and 1 ms at
 * one session, 5 ms and 3 ms at 16); the lines "added" over direct keep the issue's first reading of them.
 *
 * On both stores: a SQLite file, then a PostgreSQL database (a server this bench starts, fsync on);
 * BENCH_STORES=sqlite (or postgres) runs one.
 *
 * Both apps commit with synchronous=FULL, the default; SWITCHBOARD_DB_SYNCHRONOUS=NORMAL runs both without
 * an fsync per commit, which shows what the ledger's commits (on the app's event loop) add.
 *
 * "added" is routed minus direct, per percentile. Events written per call: the store's head position
 * moved per turn, in each mode. Nothing is asserted: the figures depend on the machine and its load;
 * the targets are printed beside them.
 */
import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { filter, type Subscription } from 'rxjs';
import type { SwitchboardConfig } from '../src/config/switchboard-config';
import { CopilotCliConnection } from '../src/copilot-cli/copilot-cli-connection';
import { EventStore } from '../src/event-store/event-store';
import { type AppStoreTarget, sqliteAppStore } from '../test/fixtures/app-store-targets';
import { type PostgresServer, startPostgresServer } from '../test/fixtures/postgres-server';
import { type RealCliApp, startRealCliApp } from '../test/fixtures/real-cli-app';
import { ScriptedModelServer } from '../test/fixtures/scripted-model-server';
import { SdkModelLeg, type SdkModelMode } from './sdk-model-leg';
import { testConfig } from '../test/fixtures/test-config';

/** Chunks of the streamed answer (the scripted server cuts text every 40 characters). */
const CHUNKS = 200;
const STREAM_MARKER = 'STREAM_MANY_CHUNKS';
const LEVELS = [
  { sessions: 1, rounds: 8, turnsPerRound: 5, streamedPerRound: 1 },
  { sessions: 16, rounds: 4, turnsPerRound: 2, streamedPerRound: 1 },
];
const WARMUP_TURNS = 3;
/** issue 41's targets: added milliseconds (p50) per call and to first token, by sessions at once. */
const TARGETS: Record<number, { callP50Ms: number; ttftP50Ms: number }> = { 1: { callP50Ms: 2, ttftP50Ms: 1 }, 16: { callP50Ms: 5, ttftP50Ms: 3 } };
/** Routed chunk throughput at least this share of direct. */
const THROUGHPUT_TARGET = 0.95;
/** `/health/live` asked this often during the 16-session phase; its p99 at most HEALTH_TARGET_MS. */
const HEALTH_POLL_MS = 50;
const HEALTH_TARGET_MS = 20;
const HEALTH_PHASE_SESSIONS = 16;

type Mode = 'direct' | 'routed';
/** Switchboard's two apps, and the bare SDK's two CLIs (the hand-off's floor). */
type Leg = Mode | 'sdk direct' | 'sdk handed';

interface Turn {
  totalMs: number;
  ttftMs: number;
  deltas: number;
  /** From the first delta to the last one. */
  streamMs: number;
}

type StoreName = 'sqlite' | 'postgres';

/** The app's SQLite file with the commit durability asked for (SWITCHBOARD_DB_SYNCHRONOUS, as the service reads it). */
function storeWith(synchronous: 'FULL' | 'NORMAL'): AppStoreTarget {
  return async (dir) => {
    const store = await sqliteAppStore(dir);
    const { database } = testConfig(dir);
    return { ...store, config: { database: { ...database, synchronous } } };
  };
}

/** A fresh database per app on one PostgreSQL server, fsync and synchronous_commit on (as shipped). */
function postgresStore(server: PostgresServer): AppStoreTarget {
  let databases = 0;
  return async () => {
    const url = await server.createDatabase(`bench_model_calls_${process.pid}_${++databases}`);
    return {
      config: { postgres: { url, poolSize: 4 } },
      env: { SWITCHBOARD_DATABASE_URL: url },
      query: () => Promise.reject(new Error('not used by this bench')),
    };
  };
}

/** The scripted model in a process of its own, so that its answers do not wait for either app's event loop. */
async function serveModel(): Promise<void> {
  const model = new ScriptedModelServer([
    {
      name: 'streamed',
      lastMessageIncludes: STREAM_MARKER,
      answer: { text: Array.from({ length: CHUNKS }, (_, i) => `chunk ${String(i).padStart(4, '0')} `.padEnd(40, '.')).join('') },
    },
    { name: 'at once', answer: { text: 'OK' } },
  ]);
  await model.start();
  // Only the counters leave this process: the recorded requests would grow without bound.
  model.on('request', () => model.requests.splice(0));
  let served = 0;
  model.on('request', () => (served += 1));
  process.on('message', () => process.send?.({ served }));
  process.send?.({ port: model.port });
}

class ModelProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<ModelProcess> {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', __filename, '--model-server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
    return new ModelProcess(child, `http://127.0.0.1:${port}/v1`);
  }

  served(): Promise<number> {
    return new Promise((resolve) => {
      this.child.once('message', (m: { served: number }) => resolve(m.served));
      this.child.send('count');
    });
  }

  stop(): void {
    this.child.kill();
  }
}

class Bench {
  private readonly sessions: string[] = [];
  private watching?: Subscription;
  private readonly waiting = new Map<string, { t0: number; first?: number; last?: number; deltas: number; done: (turn: Turn) => void }>();

  private constructor(
    readonly mode: Mode,
    private readonly running: RealCliApp,
  ) {}

  static async start(mode: Mode, modelUrl: string, store: AppStoreTarget): Promise<Bench> {
    const model = { baseUrl: modelUrl } as ScriptedModelServer;
    const modelCalls: SwitchboardConfig['modelCalls'] = { route: mode === 'routed', content: 'full', contentMaxBytes: 1024 * 1024, prices: undefined };
    const running = await startRealCliApp(model, { modelCalls }, store);
    const bench = new Bench(mode, running);
    return bench;
  }

  get routed(): boolean {
    return this.running.app.app.get(CopilotCliConnection).modelRoute().routed;
  }

  async sessionsUpTo(count: number): Promise<string[]> {
    while (this.sessions.length < count) {
      const created = await this.running.http('POST', '/api/sessions', {});
      if (created.status !== 201) throw new Error(`${this.mode}: create session answered ${created.status}: ${JSON.stringify(created.body)}`);
      this.sessions.push(created.body.sessionId as string);
    }
    this.watch();
    return this.sessions.slice(0, count);
  }

  /** What `model_call.finished` recorded of the calls after `position`. */
  async finishedCallsAfter(position: number): Promise<{ ttfbMs?: number; durationMs?: number }[]> {
    const events = await this.running.app.app.get(EventStore).readAll({ after: position, limit: 100_000 });
    return events.filter((e) => e.type === 'model_call.finished').map((e) => e.data as { ttfbMs?: number; durationMs?: number });
  }

  /**
   * Asks `/health/live` every HEALTH_POLL_MS until `stop` is called: each answer's time, send to body.
   * One request at a time, as a liveness probe asks.
   */
  pollHealth(): { stop: () => Promise<number[]> } {
    const times: number[] = [];
    let polling = true;
    const done = (async () => {
      while (polling) {
        const t0 = performance.now();
        const answer = await this.running.http('GET', '/health/live');
        const took = performance.now() - t0;
        if (answer.status !== 200) throw new Error(`${this.mode}: /health/live answered ${answer.status}`);
        times.push(took);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, HEALTH_POLL_MS - took)));
      }
    })();
    return {
      stop: async () => {
        polling = false;
        await done;
        return times;
      },
    };
  }

  head(): Promise<number> {
    return this.running.app.app.get(EventStore).headPosition();
  }

  /** One turn: the REST send, the first streamed delta, the session's idle. */
  async turn(sessionId: string, prompt: string): Promise<Turn> {
    const ended = new Promise<Turn>((done) => this.waiting.set(sessionId, { t0: performance.now(), deltas: 0, done }));
    const sent = await this.running.http('POST', `/api/sessions/${sessionId}/messages`, { prompt });
    if (sent.status !== 202) throw new Error(`${this.mode}: send answered ${sent.status}: ${JSON.stringify(sent.body)}`);
    return ended;
  }

  private watch(): void {
    this.watching ??= this.running.app.app
      .get(CopilotCliConnection)
      .events$.pipe(filter(({ event }) => !event.agentId && (event.type === 'assistant.message_delta' || event.type === 'session.idle')))
      .subscribe(({ sessionId, event }) => {
        const turn = this.waiting.get(sessionId);
        if (!turn) return;
        const now = performance.now();
        if (event.type === 'assistant.message_delta') {
          turn.first ??= now;
          turn.last = now;
          turn.deltas += 1;
          return;
        }
        this.waiting.delete(sessionId);
        turn.done({
          totalMs: now - turn.t0,
          ttftMs: (turn.first ?? now) - turn.t0,
          deltas: turn.deltas,
          streamMs: (turn.last ?? now) - (turn.first ?? now),
        });
      });
  }

  async close(): Promise<void> {
    this.watching?.unsubscribe();
    await this.running.close();
  }
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const ms = (value: number) => `${value.toFixed(2).padStart(7)} ms`;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)} ms`;
const verdict = (value: number, target: number) => `target <= ${target} ms: ${value <= target ? 'met' : 'MISSED'}`;

interface Figures {
  calls: Turn[];
  streamed: Turn[];
  events: number;
  turns: number;
  modelRequests: number;
  /** Routed: what the ledger recorded of the calls (one-call turns and streamed answers). */
  ledger: { ttfbMs?: number; durationMs?: number }[];
}

async function main(): Promise<void> {
  if (process.argv.includes('--model-server')) return serveModel();
  const stores = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').filter((name): name is StoreName => name === 'sqlite' || name === 'postgres');
  const model = await ModelProcess.start();
  const sdkDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-model-calls-sdk-'));
  let server: PostgresServer | undefined;
  let sdk: Record<SdkModelMode, SdkModelLeg> | undefined;
  try {
    sdk = { direct: await SdkModelLeg.start('direct', model.baseUrl, sdkDir), handed: await SdkModelLeg.start('handed', model.baseUrl, sdkDir) };
    for (const name of stores) {
      const synchronous = process.env.SWITCHBOARD_DB_SYNCHRONOUS === 'NORMAL' ? 'NORMAL' : 'FULL';
      if (name === 'postgres') server ??= await startPostgresServer({ durable: true });
      const store = name === 'sqlite' ? storeWith(synchronous) : postgresStore(server as PostgresServer);
      console.log(`\n== ${name === 'sqlite' ? `SQLite (synchronous=${synchronous})` : 'PostgreSQL (fsync on)'}`);
      await benchOn(store, model, sdk);
    }
  } finally {
    await sdk?.direct.close();
    await sdk?.handed.close();
    fs.rmSync(sdkDir, { recursive: true, force: true });
    server?.stop();
    model.stop();
  }
}

async function benchOn(store: AppStoreTarget, model: ModelProcess, sdk: Record<SdkModelMode, SdkModelLeg>): Promise<void> {
  const benches = { direct: await Bench.start('direct', model.baseUrl, store), routed: await Bench.start('routed', model.baseUrl, store) };
  try {
    for (const level of LEVELS) {
      const figures: Record<Mode, Figures> = {
        direct: { calls: [], streamed: [], events: 0, turns: 0, modelRequests: 0, ledger: [] },
        routed: { calls: [], streamed: [], events: 0, turns: 0, modelRequests: 0, ledger: [] },
      };
      const floor: Record<SdkModelMode, SdkFigures> = { direct: { calls: [], streamed: [] }, handed: { calls: [], streamed: [] } };
      for (const bench of Object.values(benches)) {
        const sessions = await bench.sessionsUpTo(level.sessions);
        for (let i = 0; i < WARMUP_TURNS; i++) await Promise.all(sessions.map((s) => bench.turn(s, 'Warm up: say OK')));
      }
      for (const leg of Object.values(sdk)) {
        const sessions = await leg.sessionsUpTo(level.sessions);
        for (let i = 0; i < WARMUP_TURNS; i++) await Promise.all(sessions.map((s) => leg.turn(s, 'Warm up: say OK')));
      }
      if (!benches.routed.routed || benches.direct.routed) throw new Error('the routed app must route and the direct one must not');
      // The routed app's liveness, asked while its turns run (the direct app's turns share this process's loop).
      const health: number[] | undefined = level.sessions === HEALTH_PHASE_SESSIONS ? [] : undefined;
      const legs: Leg[] = ['direct', 'routed', 'sdk direct', 'sdk handed'];
      for (let round = 0; round < level.rounds; round++) {
        // Rotating which leg goes first, so that none always runs after another's leftovers.
        const order = legs.map((_, i) => legs[(i + round) % legs.length]);
        for (const leg of order) {
          if (leg === 'sdk direct' || leg === 'sdk handed') {
            const peer = sdk[leg === 'sdk direct' ? 'direct' : 'handed'];
            const into = floor[peer.mode];
            const sessions = await peer.sessionsUpTo(level.sessions);
            for (let i = 0; i < level.turnsPerRound; i++)
              into.calls.push(...(await Promise.all(sessions.map((s) => peer.turn(s, `Turn ${round}.${i}: say OK`)))));
            for (let i = 0; i < level.streamedPerRound; i++) {
              into.streamed.push(...(await Promise.all(sessions.map((s) => peer.turn(s, `${STREAM_MARKER} ${round}.${i}`)))));
            }
            continue;
          }
          const bench = benches[leg];
          const sessions = await bench.sessionsUpTo(level.sessions);
          const into = figures[leg];
          const head = await bench.head();
          const served = await model.served();
          const polling = health && leg === 'routed' ? bench.pollHealth() : undefined;
          for (let i = 0; i < level.turnsPerRound; i++) {
            into.calls.push(...(await Promise.all(sessions.map((s) => bench.turn(s, `Turn ${round}.${i}: say OK`)))));
          }
          for (let i = 0; i < level.streamedPerRound; i++) {
            into.streamed.push(...(await Promise.all(sessions.map((s) => bench.turn(s, `${STREAM_MARKER} ${round}.${i}`)))));
          }
          if (polling) health?.push(...(await polling.stop()));
          into.events += (await bench.head()) - head;
          into.ledger.push(...(await bench.finishedCallsAfter(head)));
          into.turns += sessions.length * (level.turnsPerRound + level.streamedPerRound);
          into.modelRequests += (await model.served()) - served;
        }
      }
      report(level.sessions, figures, floor, health);
    }
  } finally {
    await benches.direct.close();
    await benches.routed.close();
  }
}

interface SdkFigures {
  calls: Turn[];
  streamed: Turn[];
}

function report(sessions: number, figures: Record<Mode, Figures>, floor: Record<SdkModelMode, SdkFigures>, health: number[] | undefined): void {
  const target = TARGETS[sessions];
  const { direct, routed } = figures;
  console.log(
    `\n${sessions} session${sessions === 1 ? '' : 's'} at once: ${direct.calls.length} one-call turns and ${direct.streamed.length} streamed answers of ${CHUNKS} chunks per mode; model requests per turn direct ${(direct.modelRequests / direct.turns).toFixed(2)}, routed ${(routed.modelRequests / routed.turns).toFixed(2)}`,
  );
  const line = (name: string, of: (t: Turn) => number, turns: 'calls' | 'streamed', target?: number) => {
    for (const p of [50, 99]) {
      const d = percentile(direct[turns].map(of), p);
      const r = percentile(routed[turns].map(of), p);
      const added = r - d;
      const aim = target !== undefined && p === 50 ? `   ${verdict(added, target)}` : '';
      console.log(`  ${`${name} p${p}`.padEnd(30)} direct ${ms(d)}   routed ${ms(r)}   added ${signed(added).padStart(10)}${aim}`);
    }
  };
  line('call (send to idle)', (t) => t.totalMs, 'calls', target?.callP50Ms);
  line('time to first token', (t) => t.ttftMs, 'calls', target?.ttftP50Ms);
  line('streamed answer (send to idle)', (t) => t.totalMs, 'streamed');
  // The same turns on the bare SDK: what handing a call to any client costs the CLI, then Switchboard's share beyond it.
  const overHandOff = (name: string, of: (t: Turn) => number, turns: 'calls' | 'streamed', target?: number) => {
    for (const p of [50, 99]) {
      const d = percentile(floor.direct[turns].map(of), p);
      const h = percentile(floor.handed[turns].map(of), p);
      const ours = percentile(routed[turns].map(of), p) - percentile(direct[turns].map(of), p);
      const beyond = ours - (h - d);
      const aim = target !== undefined && p === 50 ? `   ${verdict(beyond, target)}` : '';
      console.log(
        `  ${`${name} p${p}`.padEnd(30)} sdk direct ${ms(d)}   sdk handed ${ms(h)}   hand-off ${signed(h - d).padStart(10)}   Switchboard over it ${signed(beyond).padStart(10)}${aim}`,
      );
    }
  };
  console.log(`  the CLI's hand-off itself, on the bare SDK (${floor.direct.calls.length} one-call turns per mode):`);
  overHandOff('call (send to idle)', (t) => t.totalMs, 'calls', target?.callP50Ms);
  overHandOff('time to first token', (t) => t.ttftMs, 'calls', target?.ttftP50Ms);
  overHandOff('streamed answer (send to idle)', (t) => t.totalMs, 'streamed');
  // The provider's chunks per second from the first token to the end of the turn. Fewer deltas may reach the
  // CLI routed: chunks that arrive together are read (and handed over) together, never held back.
  const throughput = (f: Figures) => {
    const perSecond = f.streamed.map((t) => (CHUNKS / Math.max(t.totalMs - t.ttftMs, 0.001)) * 1000);
    return {
      p50: percentile(perSecond, 50),
      deltas: percentile(
        f.streamed.map((t) => t.deltas),
        50,
      ),
    };
  };
  const dt = throughput(direct);
  const rt = throughput(routed);
  console.log(
    `  ${'chunk throughput p50'.padEnd(30)} direct ${dt.p50.toFixed(0).padStart(7)} /s   routed ${rt.p50.toFixed(0).padStart(7)} /s   ratio ${(rt.p50 / dt.p50).toFixed(2)}x   (CLI deltas per answer: direct ${dt.deltas}, routed ${rt.deltas})   target >= ${THROUGHPUT_TARGET}x: ${rt.p50 / dt.p50 >= THROUGHPUT_TARGET ? 'met' : 'MISSED'}`,
  );
  if (health) {
    const p99 = percentile(health, 99);
    console.log(
      `  ${'/health/live (routed app) p99'.padEnd(30)} ${ms(p99)}   p50 ${ms(percentile(health, 50))}   max ${ms(Math.max(...health))}   (${health.length} asked, every ${HEALTH_POLL_MS} ms while the routed app's turns ran)   ${verdict(p99, HEALTH_TARGET_MS)}`,
    );
  }
  const inRoute = (key: 'ttfbMs' | 'durationMs') => routed.ledger.map((call) => call[key]).filter((v): v is number => typeof v === 'number');
  console.log(
    `  ${'in the route (ledger) p50'.padEnd(30)} request in to provider's first byte ${percentile(inRoute('ttfbMs'), 50)} ms, to the answer's end ${percentile(inRoute('durationMs'), 50)} ms (p99 ${percentile(inRoute('ttfbMs'), 99)} / ${percentile(inRoute('durationMs'), 99)} ms)`,
  );
  const perTurn = (f: Figures) => f.events / f.turns;
  console.log(
    `  ${'events written per turn'.padEnd(30)} direct ${perTurn(direct).toFixed(2).padStart(7)}      routed ${perTurn(routed).toFixed(2).padStart(7)}      added ${(perTurn(routed) - perTurn(direct)).toFixed(2)} per call (model_call.started + .finished = 2)`,
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

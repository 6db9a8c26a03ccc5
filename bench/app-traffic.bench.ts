/**
 * What the app's inline projections cost an append, on both stores, with the events a delegated run
 * with tool calls records.
 *
 *   npm run bench:app-traffic
 *
 * Each "session" is one sub-agent run: `run.started` on its run stream; `session.created` and
 * `session.started` on its session stream (`session-sub-agent-<run>`); per tool call the CLI's
 * `tool.execution_start`, the routed `tool_call.routed`, `tool.execution_complete`,
 * `assistant.message` and `assistant.usage`, appended with `any` as the app records them; then
 * `run.completed`. Before each tool call its model call on `model_call-<id>` (`model_call.started`, then
 * `.finished`, as the model route appends them). The same traffic runs through each store twice: with the app's inline projections
 * registered (sessions, runs, routed-requests, stream-summaries, the model-call ledger's model-calls, with the PostgreSQL set-based forms of
 * sessions, runs and stream-summaries: what the service runs in every append's transaction) and with none, at 1 and 64 concurrent sessions.
 * Appends are awaited one after the other within a session (maxDelayMs 0: the store's cost, not the
 * app's batching delay). Nothing is asserted: the machine is shared, so both sides of each ratio run
 * in alternating rounds.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyPendingMigrations } from '../src/database/migrations';
import { openSqliteConnection } from '../src/database/sqlite-connection';
import { SqliteDatabase } from '../src/database/sqlite-database';
import { RunsProjection } from '../src/delegation/projections/runs.projection';
import { StreamSummariesProjection } from '../src/event-log/projections/stream-summaries.projection';
import type { EventStore } from '../src/event-store/event-store';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store';
import { ModelCallsProjection } from '../src/model-calls/projections/model-calls.projection';
import { InlineProjections } from '../src/projections/inline-projections';
import { ProjectionRegistry } from '../src/projections/projection-registry';
import { SqliteEventStore } from '../src/event-store/sqlite/sqlite-event-store';
import { SessionsProjection } from '../src/sessions/projections/sessions.projection';
import { RoutedRequestsProjection } from '../src/tool-dispatch/projections/routed-requests.projection';
import { startPostgresServer } from '../test/fixtures/postgres-server';
import { EVENTS_PER_RUN_WITH_MODEL_CALLS, recordRun, TOOL_CALLS_PER_RUN } from './run-traffic';

const ROUNDS = 3;
/** Issue 29: the app's inline projections keep >= 0.6x of the bare store's throughput at 64 sessions, on both stores. */
const TARGET_RATIO = 0.6;
const TARGET_SESSIONS = 64;
const CASES = [
  { sessions: 1, runsPerSession: 12 },
  { sessions: 64, runsPerSession: 2 },
] as const;

interface Opened {
  store: EventStore;
  close(): Promise<void>;
}

/** The inline projections the service registers for these events (Nest discovers them; here by hand). */
function appRegistry(withProjections: boolean): ProjectionRegistry {
  const registry = new ProjectionRegistry();
  if (!withProjections) return registry;
  for (const projection of [
    new SessionsProjection(),
    new RunsProjection(),
    new RoutedRequestsProjection(),
    new StreamSummariesProjection(),
    new ModelCallsProjection(),
  ]) {
    registry.register(projection);
  }
  return registry;
}

async function load(store: EventStore, sessions: number, runsPerSession: number, prefix: string): Promise<{ events: number; ms: number }> {
  const started = performance.now();
  const counts = await Promise.all(
    Array.from({ length: sessions }, async (_, s) => {
      let events = 0;
      for (let r = 0; r < runsPerSession; r++) events += await recordRun(store, `${prefix}-${s}-${r}`, { modelCalls: true });
      return events;
    }),
  );
  return { events: counts.reduce((a, b) => a + b, 0), ms: performance.now() - started };
}

async function measure(label: string, open: (withProjections: boolean) => Promise<Opened>): Promise<void> {
  for (const { sessions, runsPerSession } of CASES) {
    const sides = { bare: await open(false), projected: await open(true) };
    try {
      const totals = { bare: { events: 0, ms: 0 }, projected: { events: 0, ms: 0 } };
      for (const side of ['bare', 'projected'] as const) await load(sides[side].store, sessions, 1, `warmup-${sessions}`);
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of ['bare', 'projected'] as const) {
          const { events, ms } = await load(sides[side].store, sessions, runsPerSession, `r${round}-${sessions}`);
          totals[side].events += events;
          totals[side].ms += ms;
        }
      }
      const rate = (side: 'bare' | 'projected') => (totals[side].events / totals[side].ms) * 1000;
      const ratio = rate('projected') / rate('bare');
      const target = sessions === TARGET_SESSIONS ? `   target >= ${TARGET_RATIO}x: ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}` : '';
      console.log(
        `${label.padEnd(10)} ${String(sessions).padStart(2)} session(s)  ${String(totals.projected.events).padStart(6)} events   no projections ${rate('bare').toFixed(0).padStart(6)} ev/s   app's inline projections ${rate('projected').toFixed(0).padStart(6)} ev/s   = ${ratio.toFixed(2)}x${target}`,
      );
    } finally {
      await sides.bare.close();
      await sides.projected.close();
    }
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-traffic-'));
  const server = await startPostgresServer();
  try {
    console.log(
      `App traffic: delegated runs of ${TOOL_CALLS_PER_RUN} tool calls, each with its model call on the ledger (${EVENTS_PER_RUN_WITH_MODEL_CALLS} events each), ${ROUNDS} alternating rounds`,
    );
    console.log(
      `  node ${process.version}, ${os.cpus().length} cpus, load average ${os.loadavg()[0].toFixed(2)}; SQLite synchronous=FULL WAL; PostgreSQL fsync on`,
    );
    let files = 0;
    await measure('sqlite', async (withProjections) => {
      const file = path.join(dir, `traffic-${files++}.sqlite`);
      const conn = openSqliteConnection({ file, synchronous: 'FULL', busyTimeoutMs: 5000, integrityCheck: false });
      applyPendingMigrations(conn);
      const store = new SqliteEventStore(new SqliteDatabase(conn, file), new InlineProjections(appRegistry(withProjections)));
      return {
        store,
        close: async () => {
          store.flushAndClose();
          conn.close();
        },
      };
    });
    let databases = 0;
    await measure('postgres', async (withProjections) => {
      const store = new PostgresEventStore({
        connectionString: await server.createDatabase(`traffic${databases++}`),
        poolSize: 8,
        inlineProjections: [new InlineProjections(appRegistry(withProjections))],
      });
      await store.migrate();
      return { store, close: () => store.close() };
    });
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

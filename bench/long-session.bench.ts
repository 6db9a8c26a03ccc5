/**
 * Session commands on a long session, through the real app over HTTP (issue 22 §4).
 *
 *   npm run bench:long-session            (LONG_SESSION_EVENTS=20000 for a shorter stream)
 *
 * A session stream of ~100,000 events (session.created, session.started, CLI records as
 * SessionLifecycle writes them, session.interrupted) is written straight into a SQLite file with the
 * app's inline projections, then the real Nest app starts on that file (it loads the session as
 * interrupted, as after a restart; no CLI is spawned: it points at a closed port) and N writers
 * (1, 2, 4, 8) each send `PATCH /api/sessions/:id` (ChangeSubAgents: recorded without a CLI call)
 * one after the other for a few seconds. Per case: commands per second, p50/p99 latency, 409s and
 * other failures, the event loop's longest stall (`monitorEventLoopDelay` max: the longest task the
 * loop ran) and the slowest `GET /health/live` asked every 50 ms meanwhile. The first command after
 * start (the only one that folds the whole stream) is timed on its own. Nothing is asserted: the
 * machine is shared; targets are a longest task under 50 ms and no 409 at 8 writers.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { applyPendingMigrations } from '../src/database/migrations';
import { openSqliteConnection } from '../src/database/sqlite-connection';
import { SqliteDatabase } from '../src/database/sqlite-database';
import { StreamSummariesProjection } from '../src/event-log/projections/stream-summaries.projection';
import type { NewEvent } from '../src/event-store/event-store.types';
import { InlineProjections } from '../src/projections/inline-projections';
import { ProjectionRegistry } from '../src/projections/projection-registry';
import { SqliteEventStore } from '../src/event-store/sqlite/sqlite-event-store';
import { sessionStreamId } from '../src/event-store/stream-ids';
import { AsyncProjectionRunner } from '../src/projections/async-projection-runner';
import { SessionsProjection } from '../src/sessions/projections/sessions.projection';
import { createSessionSchema } from '../src/sessions/session-config';
import { startTestApp } from '../test/fixtures/app-fixture';
import { makeTempDir } from '../test/fixtures/temp-dir';
import { testConfig, testDatabaseFile } from '../test/fixtures/test-config';

const EVENTS = Number(process.env.LONG_SESSION_EVENTS ?? 100_000);
const WRITERS = (process.env.LONG_SESSION_WRITERS ?? '1,2,4,8').split(',').map(Number);
const CASE_MS = Number(process.env.LONG_SESSION_CASE_MS ?? 4_000);
const HEALTH_EVERY_MS = 50;
const SESSION_ID = 'long-session';

function cliRecord(i: number): NewEvent {
  return {
    type: 'cli.assistant.message_delta',
    data: {
      cliEventId: `e-${i}`,
      timestamp: new Date(0).toISOString(),
      payload: { messageId: `m-${Math.floor(i / 50)}`, deltaContent: `chunk ${i} `.repeat(8) },
    },
  };
}

/** The session's stream, written as the app would have (inline projections included), in big appends. */
async function seed(file: string): Promise<void> {
  const conn = openSqliteConnection({ file, synchronous: 'NORMAL', busyTimeoutMs: 5000, integrityCheck: false });
  applyPendingMigrations(conn);
  const registry = new ProjectionRegistry();
  registry.register(new SessionsProjection());
  registry.register(new StreamSummariesProjection());
  const store = new SqliteEventStore(new SqliteDatabase(conn, file), new InlineProjections(registry));
  const streamId = sessionStreamId(SESSION_ID);
  const config = { model: 'gpt-4.1', ...createSessionSchema.parse({}), subAgents: [] };
  await store.append(streamId, 'no_stream', [
    { type: 'session.created', data: { sessionId: SESSION_ID, config } },
    { type: 'session.started', data: { protocolVersion: 3 } },
  ]);
  for (let written = 2; written < EVENTS - 1;) {
    const batch = Array.from({ length: Math.min(5_000, EVENTS - 1 - written) }, (_, i) => cliRecord(written + i));
    await store.append(streamId, 'any', batch);
    written += batch.length;
  }
  await store.append(streamId, 'any', [{ type: 'session.interrupted', data: { reason: 'bench: the service restarted', wasRunning: false } }]);
  store.flushAndClose();
  conn.close();
}

interface CaseFigures {
  writers: number;
  ok: number;
  conflicts: number;
  failed: number;
  perSecond: number;
  p50: number;
  p99: number;
  maxMs: number;
  longestTaskMs: number;
  healthMaxMs: number;
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] : NaN);

/** Status 0: the connection failed (a loop stalled past the keep-alive timeout resets pooled sockets). */
async function patch(baseUrl: string, subAgents: string[]): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/sessions/${SESSION_ID}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ subAgents }),
  }).catch(() => undefined);
  await response?.arrayBuffer();
  return { status: response?.status ?? 0, ms: performance.now() - started };
}

/** `GET /health/live` every HEALTH_EVERY_MS until stopped: the slowest answer. */
function probeHealth(baseUrl: string): { stop(): Promise<number> } {
  let running = true;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/health/live`).catch(() => undefined);
      await response?.arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return slowest;
    },
  };
}

async function runCase(baseUrl: string, writers: number): Promise<CaseFigures> {
  const latencies: number[] = [];
  const counts = { ok: 0, conflicts: 0, failed: 0 };
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const health = probeHealth(baseUrl);
  const started = performance.now();
  const deadline = started + CASE_MS;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < deadline) {
        const { status, ms } = await patch(baseUrl, []);
        latencies.push(ms);
        if (status === 200) counts.ok += 1;
        else if (status === 409) counts.conflicts += 1;
        else counts.failed += 1;
      }
    }),
  );
  const elapsed = performance.now() - started;
  const healthMaxMs = await health.stop();
  loop.disable();
  latencies.sort((a, b) => a - b);
  return {
    writers,
    ...counts,
    perSecond: (counts.ok / elapsed) * 1000,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    maxMs: latencies[latencies.length - 1] ?? NaN,
    longestTaskMs: loop.max / 1e6,
    healthMaxMs,
  };
}

async function main(): Promise<void> {
  const { dir, cleanup } = makeTempDir('switchboard-long-session-');
  try {
    const seedStarted = performance.now();
    await seed(testDatabaseFile(dir));
    const mb = fs.statSync(testDatabaseFile(dir)).size / 1e6;
    console.log(
      `long session: ${EVENTS.toLocaleString('en')} events seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (${mb.toFixed(0)} MB)`,
    );

    const base = testConfig(dir);
    const bootLoop = monitorEventLoopDelay({ resolution: 5 });
    bootLoop.enable();
    const bootStarted = performance.now();
    // A closed port: the app never spawns a CLI (ChangeSubAgents needs none).
    const app = await startTestApp({ cli: { ...base.cli, url: '127.0.0.1:9' } }, dir);
    const bootMs = performance.now() - bootStarted;
    try {
      // The audit log (async) catches up on the seeded stream first: measured on its own, not in the cases.
      const runner = app.app.get(AsyncProjectionRunner);
      while ((await runner.status()).some((p) => p.lag > 0)) await new Promise((resolve) => setTimeout(resolve, 20));
      const caughtUpMs = performance.now() - bootStarted;
      bootLoop.disable();
      const firstLoop = monitorEventLoopDelay({ resolution: 5 });
      firstLoop.enable();
      const health = probeHealth(app.baseUrl);
      const first = await patch(app.baseUrl, []);
      const firstHealth = await health.stop();
      firstLoop.disable();
      console.log(
        `  start: ${bootMs.toFixed(0)} ms, async projections caught up at ${caughtUpMs.toFixed(0)} ms (longest task ${(bootLoop.max / 1e6).toFixed(0)} ms)\n  first command (folds the whole stream): ${first.status} in ${first.ms.toFixed(0)} ms, longest task ${(firstLoop.max / 1e6).toFixed(0)} ms, slowest /health/live ${firstHealth.toFixed(0)} ms`,
      );
      console.log(
        `  node ${process.version}, ${os.cpus().length} cpus, load average ${os.loadavg()[0].toFixed(2)} (a loaded machine shows as loop delay); ${CASE_MS / 1000} s per case, each writer sends PATCH /api/sessions/:id one after the other\n`,
      );
      console.log('| writers | commands/s | p50 ms | p99 ms | max ms | 409 | other errors | longest task ms | slowest /health/live ms |');
      console.log('|---|---|---|---|---|---|---|---|---|');
      for (const writers of WRITERS) {
        const f = await runCase(app.baseUrl, writers);
        console.log(
          `| ${f.writers} | ${f.perSecond.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.maxMs.toFixed(0)} | ${f.conflicts} | ${f.failed} | ${f.longestTaskMs.toFixed(1)} | ${f.healthMaxMs.toFixed(1)} |`,
        );
      }
    } finally {
      await app.stop();
    }
  } finally {
    cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

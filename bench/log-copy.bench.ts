/**
 * Moving an existing SQLite log into PostgreSQL: how fast `npm run store:copy-to-postgres` copies
 * and rebuilds, through the same code (copyLog, then rebuildReadModels in the maintenance module).
 *
 *   npm run bench:log-copy              (100,000 events)
 *   npm run bench:log-copy -- 20000     (another size)
 *
 * The bench first writes a SQLite log of at least N events (64 runs at a time, each finished) the way the app does: delegated runs with tool
 * calls (run.started, session.created/started, per tool call the CLI's records and the routed call,
 * run.completed) through the SqliteEventStore with the app's inline projections, synchronous=OFF so
 * that writing the source is quick (the copy reads it, durability of the source is not measured).
 * Then a private PostgreSQL server (fsync on, as shipped) receives the copy: events/s of the copy
 * (1,000 events a transaction under the append lock), and of the rebuild of every read model the
 * maintenance module registers (its Nest start is printed apart). Nothing is asserted.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MaintenanceModule } from '../src/cli/maintenance.module';
import { loadConfig } from '../src/config/switchboard-config';
import { applyPendingMigrations } from '../src/database/migrations';
import { openSqliteConnection } from '../src/database/sqlite-connection';
import { SqliteDatabase } from '../src/database/sqlite-database';
import { RunsProjection } from '../src/delegation/projections/runs.projection';
import { StreamSummariesProjection } from '../src/event-log/projections/stream-summaries.projection';
import { copyLog } from '../src/event-store/postgres/copy-log';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store';
import { InlineProjections } from '../src/projections/inline-projections';
import { ProjectionRegistry } from '../src/projections/projection-registry';
import { SqliteEventStore } from '../src/event-store/sqlite/sqlite-event-store';
import { rebuildReadModels } from '../src/projections/rebuild-pg-read-models';
import { SessionsProjection } from '../src/sessions/projections/sessions.projection';
import { RoutedRequestsProjection } from '../src/tool-dispatch/projections/routed-requests.projection';
import { startPostgresServer } from '../test/fixtures/postgres-server';
import { recordRun } from './run-traffic';

const EVENTS = Number(process.argv[2] ?? 100_000);
const CONCURRENT_RUNS = 64;

/** A SQLite log of at least `events` events, written as the app writes it. */
async function writeSource(file: string, events: number): Promise<number> {
  const connection = openSqliteConnection({ file, synchronous: 'NORMAL', busyTimeoutMs: 5000, integrityCheck: false });
  applyPendingMigrations(connection);
  connection.pragma('synchronous = OFF');
  const registry = new ProjectionRegistry();
  for (const projection of [new SessionsProjection(), new RunsProjection(), new RoutedRequestsProjection(), new StreamSummariesProjection()])
    registry.register(projection);
  const store = new SqliteEventStore(new SqliteDatabase(connection, file), new InlineProjections(registry));
  let written = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENT_RUNS }, async () => {
      while (written < events) {
        const recorded = await recordRun(store, `run-${next++}`);
        written += recorded;
      }
    }),
  );
  store.flushAndClose();
  connection.close();
  return written;
}

const rate = (events: number, ms: number) => `${((events / ms) * 1000).toFixed(0)} events/s`;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-log-copy-'));
  const file = path.join(dir, 'source.sqlite');
  const server = await startPostgresServer();
  // The stores' and the maintenance module's Nest logs; the figures are what this prints.
  Logger.overrideLogger(false);
  try {
    let started = performance.now();
    const written = await writeSource(file, EVENTS);
    console.log(`Log copy: SQLite -> PostgreSQL, ${written.toLocaleString('en-US')} events of delegated runs with tool calls`);
    console.log(`  node ${process.version}, ${os.cpus().length} cpus, load average ${os.loadavg()[0].toFixed(2)}; PostgreSQL fsync on, private server`);
    console.log(`  source written in ${((performance.now() - started) / 1000).toFixed(1)} s (SQLite, synchronous=OFF, the app's inline projections)`);

    const url = await server.createDatabase('copy');
    const connection = openSqliteConnection({ file, synchronous: 'FULL', busyTimeoutMs: 5000, integrityCheck: false });
    const source = new SqliteEventStore(new SqliteDatabase(connection, file), new InlineProjections(new ProjectionRegistry()));
    const target = new PostgresEventStore({ connectionString: url, poolSize: 2 });
    try {
      await target.migrate();
      started = performance.now();
      const result = await copyLog(source, target);
      const copyMs = performance.now() - started;
      console.log(`  copy      ${result.copied.toLocaleString('en-US')} events in ${(copyMs / 1000).toFixed(1)} s: ${rate(result.copied, copyMs)}`);
    } finally {
      await target.close();
      connection.close();
    }

    started = performance.now();
    const config = { ...loadConfig({ ...process.env, SWITCHBOARD_DB: file }), logLevel: 'warn' as const, postgres: { url, poolSize: 2 } };
    const app = await NestFactory.createApplicationContext(MaintenanceModule.forRoot(config), { logger: false, abortOnError: false });
    try {
      console.log(`  rebuild   maintenance module started in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      started = performance.now();
      const rebuilt = await rebuildReadModels(app.get(PostgresEventStore), app.get(ProjectionRegistry));
      const rebuildMs = performance.now() - started;
      console.log(
        `  rebuild   ${rebuilt.length} read models (${rebuilt.map((r) => r.projection).join(', ')}) over ${written.toLocaleString('en-US')} events in ${(rebuildMs / 1000).toFixed(1)} s: ${rate(written, rebuildMs)}`,
      );
    } finally {
      await app.close();
    }
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

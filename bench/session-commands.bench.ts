/**
 * Latency of one session command against the length of the session's stream.
 *
 *   npm run bench:session-commands
 *
 * A session stream is seeded with 10, 1,000 or 10,000 recorded events (session.created, then CLI
 * records as SessionLifecycle writes them), then the same command (ChangeSubAgents: no CLI call, so
 * only the store's and the decider's part is timed) runs through `handleCommand` again and again,
 * with a CLI record appended between two commands as on a live session. Two ways are timed:
 *   full load  - every command reads and folds the whole stream (what session commands did before);
 *   cached     - the command starts from the state and version the previous command left (what a
 *                LiveSession keeps), reading only the events after that version.
 * Each command's append commits (synchronous=FULL), so the fsync is in both figures. Nothing is
 * asserted: the figures depend on the disk and the machine's load.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyPendingMigrations } from '../src/database/migrations';
import { openSqliteConnection } from '../src/database/sqlite-connection';
import { SqliteDatabase } from '../src/database/sqlite-database';
import { type CommandResult, handleCommand } from '../src/event-store/decider';
import { SqliteEventStore } from '../src/event-store/sqlite/sqlite-event-store';
import type { NewEvent } from '../src/event-store/event-store.types';
import { InlineProjections } from '../src/projections/inline-projections';
import { ProjectionRegistry } from '../src/projections/projection-registry';
import { SessionsProjection } from '../src/sessions/projections/sessions.projection';
import { createSessionSchema } from '../src/sessions/session-config';
import { type SessionState, sessionDecider } from '../src/sessions/session.decider';
import type { SessionEvent } from '../src/sessions/session.events';

const SIZES = [10, 1_000, 10_000];
const COMMANDS = 200;
const WARMUP = 20;

function cliRecord(i: number): NewEvent {
  return {
    type: 'cli.assistant.message',
    data: { cliEventId: `e-${i}`, timestamp: new Date(0).toISOString(), payload: { messageId: `m-${i}`, content: `chunk ${i} `.repeat(16) } },
  };
}

async function seed(store: SqliteEventStore, streamId: string, size: number): Promise<void> {
  const config = { model: 'gpt-4.1', ...createSessionSchema.parse({}), subAgents: [] };
  await store.append(streamId, 'no_stream', [{ type: 'session.created', data: { sessionId: 'bench', config } }]);
  for (let written = 1; written < size;) {
    const batch = Array.from({ length: Math.min(500, size - written) }, (_, i) => cliRecord(written + i));
    await store.append(streamId, 'any', batch);
    written += batch.length;
  }
}

interface Figures {
  median: number;
  p95: number;
}

async function time(size: number, cached: boolean): Promise<Figures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-session-commands-'));
  const file = path.join(dir, 'bench.sqlite');
  const conn = openSqliteConnection({ file, synchronous: 'FULL', busyTimeoutMs: 5000, integrityCheck: false });
  applyPendingMigrations(conn);
  const registry = new ProjectionRegistry();
  registry.register(new SessionsProjection());
  const store = new SqliteEventStore(new SqliteDatabase(conn, file), new InlineProjections(registry));
  const streamId = 'session-bench';
  try {
    await seed(store, streamId, size);
    let last: CommandResult<SessionState, SessionEvent> | undefined;
    const samples: number[] = [];
    for (let i = 0; i < WARMUP + COMMANDS; i++) {
      await store.append(streamId, 'any', [cliRecord(size + i)]);
      const started = performance.now();
      last = await handleCommand(
        store,
        sessionDecider,
        streamId,
        { type: 'ChangeSubAgents', sessionId: 'bench', subAgents: [`agent-${i}`] },
        { metadata: { actor: 'bench' }, retries: 5, ...(cached && last ? { from: { state: last.state, version: last.version } } : {}) },
      );
      if (i >= WARMUP) samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    return { median: samples[Math.floor(samples.length / 2)], p95: samples[Math.floor(samples.length * 0.95)] };
  } finally {
    store.flushAndClose();
    conn.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const size of SIZES) {
    const full = await time(size, false);
    const cached = await time(size, true);
    const ms = (f: Figures) => `${f.median.toFixed(3)} ms (p95 ${f.p95.toFixed(3)})`;
    rows.push(`| ${size.toLocaleString('en')} | ${ms(full)} | ${ms(cached)} | ${(full.median / cached.median).toFixed(1)}x |`);
  }
  console.log(`session command latency, ${COMMANDS} commands per case, median (p95)\n`);
  console.log('| events in stream | full load | cached state | speed-up |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * Append throughput of the EventStore against the floor SQLite sets on this machine.
 *
 *   npm run bench:event-store
 *
 * The same ~200-byte events are appended (a) through the real EventStore, alone and with the inline
 * StreamSummariesProjection registered so the read model's cost shows, and (b) through raw
 * better-sqlite3 prepared INSERTs of the same rows into a table shaped like the store's `events`
 * (same columns, same two unique indexes), with no stream row and no read model. Both run with the same pragmas (WAL,
 * synchronous=FULL, busy_timeout) and the same durability: an append counts as done once its
 * transaction has committed. The raw side therefore commits one BEGIN IMMEDIATE transaction per
 * event, which is what a naive writer does; the store may share a commit between appends (group
 * commit), which is exactly the gain this bench is meant to show.
 *
 * Nothing is asserted: the figures depend on the disk's fsync and on whatever else the machine is
 * doing, so the targets are printed beside the ratios instead.
 *
 * Then both stores against their batched limit, in the same run: raw single-event commits, raw
 * commits of 100 events each (the practical ceiling of a writer that batches), and the store at 1 and
 * 64 appenders, each as a ratio to that ceiling. PostgreSQL runs on a private server the bench starts
 * (test/fixtures/postgres-server.ts: initdb in a temp folder, fsync and synchronous_commit on, as shipped),
 * and beside it the peer @event-driven-io/emmett-postgresql (bench/peers, installed on first use) at 1
 * and 64 appenders on the same server.
 */
import 'reflect-metadata';
import Database from 'better-sqlite3';
import { version as driverVersion } from 'better-sqlite3/package.json';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { applyPendingMigrations } from '../src/database/migrations';
import { openSqliteConnection, type SqliteConnectionOptions } from '../src/database/sqlite-connection';
import { SqliteDatabase } from '../src/database/sqlite-database';
import { StreamSummariesProjection } from '../src/event-log/projections/stream-summaries.projection';
import { SqliteEventStore } from '../src/event-store/sqlite/sqlite-event-store';
import type { NewEvent } from '../src/event-store/event-store.types';
import { InlineProjections } from '../src/projections/inline-projections';
import { ProjectionRegistry } from '../src/projections/projection-registry';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store';
import { Client } from 'pg';
import { version as pgDriverVersion } from 'pg/package.json';
import { type PostgresServer, startPostgresServer } from '../test/fixtures/postgres-server';
import { type EmmettPostgres, peerVersion, requirePeer } from './peers';

/**
 * Sized for a 2-core VM. With a cheap fsync (~0.15 ms, virtualised ext4) the run takes ~8 s; with
 * ~2 ms per fsync the raw cases, which pay one fsync per event, bring it to ~50 s.
 */
const CASES = [
  { appenders: 1, eventsPerAppender: 4000 },
  { appenders: 64, eventsPerAppender: 200 },
] as const;

/**
 * Each case is cut into rounds that alternate raw and store, so a burst of load from another
 * process or a slow patch of the disk lands on both sides of a ratio instead of on one.
 */
const ROUNDS = 4;

/** Unmeasured appends first, so neither side is timed while V8 still runs it unoptimised. */
const WARMUP_EVENTS = 256;

/** Of raw, by contender and appenders: issue 41 asks the store alone for 0.85x at one appender. */
const TARGETS: Record<'store' | 'store+readmodel', Record<number, { min: number; label: string }>> = {
  store: { 1: { min: 0.85, label: '>= 0.85 at 1 appender' }, 64: { min: 5, label: '>= 5x at 64' } },
  'store+readmodel': { 1: { min: 0.8, label: '>= 0.80 at 1 appender' }, 64: { min: 5, label: '>= 5x at 64' } },
};

const CONNECTION: Omit<SqliteConnectionOptions, 'file'> = {
  synchronous: 'FULL',
  busyTimeoutMs: 5000,
  integrityCheck: false, // every file is new: there is nothing to check
};

/** One payload for every event of the run: the bench measures appends, not building objects. */
const PAYLOAD = {
  sessionId: 'session-3f6b2c1e-8a4d-4e6f-9b1a-2d7c5e9f0a13',
  agent: 'copilot-reviewer',
  action: 'tool_call_completed',
  tool: 'github.pulls.createReview',
  durationMs: 1234,
  ok: true,
  tags: ['bench', 'append'],
};
const EVENT: NewEvent = { type: 'BenchEventRecorded', data: PAYLOAD };

/** Appends one event at `expectedVersion`; resolves with the stream's next version once durable. */
type Append = (streamId: string, expectedVersion: number) => Promise<number>;

interface Contender {
  name: 'raw' | 'store' | 'store+readmodel';
  append: Append;
  close(): void;
}

interface CaseResult {
  name: Contender['name'];
  appenders: number;
  events: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** The store alone, and the store with the service's generic inline read model in the same transaction. */
const openStore = (file: string) => openStoreWith(file, false);
const openStoreWithReadModel = (file: string) => openStoreWith(file, true);

function openStoreWith(file: string, withReadModel: boolean): Contender {
  const conn = openSqliteConnection({ file, ...CONNECTION });
  applyPendingMigrations(conn);
  const registry = new ProjectionRegistry();
  // Without Nest nothing discovers the projection: register it by hand.
  if (withReadModel) registry.register(new StreamSummariesProjection());
  const store = new SqliteEventStore(new SqliteDatabase(conn, file), new InlineProjections(registry));
  return {
    name: withReadModel ? 'store+readmodel' : 'store',
    append: (streamId, expectedVersion) => store.append(streamId, expectedVersion, [EVENT]).then((result) => result.nextExpectedVersion),
    close: () => {
      store.flushAndClose();
      conn.close();
    },
  };
}

function openRaw(file: string): Contender {
  const db = new Database(file);
  // The pragmas of openSqliteConnection, in its order.
  db.pragma(`busy_timeout = ${CONNECTION.busyTimeoutMs}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${CONNECTION.synchronous}`);
  // The same log row the store writes, with the same uniqueness guarantees (a log without
  // UNIQUE(stream_id, stream_position) could not detect a lost update), and nothing else.
  db.exec(`CREATE TABLE raw_events (
    global_position INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL,
    stream_id TEXT NOT NULL,
    stream_position INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    recorded_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX raw_events_stream_position_uq ON raw_events (stream_id, stream_position);
  CREATE UNIQUE INDEX raw_events_event_id_uq ON raw_events (event_id);`);
  const insert = db.prepare(
    'INSERT INTO raw_events (event_id, stream_id, stream_position, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const appendOne = db.transaction((streamId: string, position: number) => {
    insert.run(uuidv7(), streamId, position, EVENT.type, JSON.stringify(EVENT.data), '{}', new Date().toISOString());
  });
  return {
    name: 'raw',
    // async only to share the store's calling shape: the commit blocks, as it does with plain
    // better-sqlite3, so 64 appenders just take turns at one fsync each.
    append: async (streamId, expectedVersion) => {
      appendOne.immediate(streamId, expectedVersion + 1);
      return expectedVersion + 1;
    },
    close: () => db.close(),
  };
}

/**
 * `appenders` async loops, each on its own stream, each awaiting its append before the next one.
 * Returns the latency of every append in ms and the wall time of the whole load.
 */
async function runLoad(
  append: Append,
  appenders: number,
  eventsPerAppender: number,
  streamPrefix: string,
): Promise<{ latencies: Float64Array; elapsedMs: number }> {
  const latencies = new Float64Array(appenders * eventsPerAppender);
  let recorded = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: appenders }, async (_, appender) => {
      const streamId = `${streamPrefix}-${appender}`;
      let version = 0;
      for (let i = 0; i < eventsPerAppender; i++) {
        const t0 = performance.now();
        version = await append(streamId, version);
        latencies[recorded++] = performance.now() - t0;
      }
    }),
  );
  return { latencies, elapsedMs: performance.now() - started };
}

/** Raw and store at one concurrency, each on a fresh file of its own, in alternating rounds. */
async function runCase(dir: string, appenders: number, eventsPerAppender: number): Promise<CaseResult[]> {
  const contenders = [openRaw, openStore, openStoreWithReadModel].map((open, i) => open(path.join(dir, `case-${appenders}-${i}.sqlite`)));
  try {
    const warmupPerAppender = Math.max(1, Math.ceil(WARMUP_EVENTS / appenders));
    for (const contender of contenders) await runLoad(contender.append, appenders, warmupPerAppender, 'warmup');

    const samples = contenders.map(() => ({ latencies: [] as Float64Array[], elapsedMs: 0 }));
    const perRound = Math.ceil(eventsPerAppender / ROUNDS);
    for (let round = 0, done = 0; done < eventsPerAppender; round++, done += perRound) {
      const count = Math.min(perRound, eventsPerAppender - done);
      for (const [i, contender] of contenders.entries()) {
        // New streams each round, so every append's expected version stays the real one.
        const { latencies, elapsedMs } = await runLoad(contender.append, appenders, count, `bench${round}`);
        samples[i].latencies.push(latencies);
        samples[i].elapsedMs += elapsedMs;
      }
    }

    return contenders.map((contender, i) => {
      const latencies = concat(samples[i].latencies).sort();
      return {
        name: contender.name,
        appenders,
        events: latencies.length,
        eventsPerSecond: (latencies.length / samples[i].elapsedMs) * 1000,
        p50Ms: percentile(latencies, 0.5),
        p99Ms: percentile(latencies, 0.99),
      };
    });
  } finally {
    contenders.forEach((contender) => contender.close());
  }
}

function concat(parts: Float64Array[]): Float64Array {
  const all = new Float64Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((offset, part) => (all.set(part, offset), offset + part.length), 0);
  return all;
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

/** What the WAL's fsyncs land on matters more than anything else here, so name it. */
function describeFileSystem(dir: string): string {
  const real = fs.realpathSync(dir);
  try {
    // mountinfo: "id parent major:minor root mountpoint options ... - fstype source superoptions"
    const mounts = fs
      .readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [left, right] = line.split(' - ');
        const mountPoint = left.split(' ')[4].replace(/\\040/g, ' ');
        const [type, source] = right.split(' ');
        return { mountPoint, type, source };
      })
      .filter(({ mountPoint }) => mountPoint === '/' || real === mountPoint || real.startsWith(`${mountPoint}/`));
    // The deepest mount point wins; of equal ones the last mounted shadows the others.
    const mount = mounts.reduce((a, b) => (b.mountPoint.length >= a.mountPoint.length ? b : a));
    return `${mount.type} (${mount.source} on ${mount.mountPoint})`;
  } catch {
    return `statfs type 0x${fs.statfsSync(real).type.toString(16)}`; // no /proc/self/mountinfo: not Linux
  }
}

function describeEnvironment(dir: string): string[] {
  const probe = openSqliteConnection({ file: path.join(dir, 'probe.sqlite'), ...CONNECTION });
  try {
    const sqliteVersion = probe.prepare('SELECT sqlite_version()').pluck().get() as string;
    const synchronous = probe.pragma('synchronous', { simple: true }) as number;
    const journalMode = probe.pragma('journal_mode', { simple: true }) as string;
    const synchronousName = ['OFF', 'NORMAL', 'FULL', 'EXTRA'][synchronous] ?? String(synchronous);
    const cpus = os.cpus();
    const cpu = `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown'}, load average ${os.loadavg()[0].toFixed(2)}`;
    const payloadBytes = Buffer.byteLength(JSON.stringify(PAYLOAD));
    return [
      `node           ${process.version} (${process.platform}/${process.arch})`,
      `cpu            ${cpu}`,
      `sqlite         ${sqliteVersion} (better-sqlite3 ${driverVersion})`,
      `pragmas        synchronous=${synchronousName} journal_mode=${journalMode} busy_timeout=${CONNECTION.busyTimeoutMs}`,
      `temp dir       ${dir}`,
      `file system    ${describeFileSystem(dir)}`,
      `event          ${payloadBytes} bytes of JSON data, 1 event per append, ${ROUNDS} alternating rounds per case`,
    ];
  } finally {
    probe.close();
  }
}

function printResults(results: CaseResult[]): void {
  const header = ['case', 'appenders', 'events', 'events/s', 'p50 ms', 'p99 ms'];
  const rows = results.map((r) => [r.name, String(r.appenders), String(r.events), r.eventsPerSecond.toFixed(0), r.p50Ms.toFixed(3), r.p99Ms.toFixed(3)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  rows.forEach((row) => console.log(line(row)));
  console.log('');

  for (const name of ['store', 'store+readmodel'] as const) {
    for (const { appenders } of CASES) {
      const store = results.find((r) => r.name === name && r.appenders === appenders);
      const raw = results.find((r) => r.name === 'raw' && r.appenders === appenders);
      if (!store || !raw) continue;
      const ratio = store.eventsPerSecond / raw.eventsPerSecond;
      const target = TARGETS[name][appenders];
      const verdict = target ? `   target ${target.label}: ${ratio >= target.min ? 'met' : 'MISSED'}` : '';
      console.log(`${name.padEnd(15)}/raw events/s at ${String(appenders).padStart(2)} appender(s): ${ratio.toFixed(2)}x${verdict}`);
    }
  }
}

/** Events per raw batched commit: the batch a writer that batches by hand would use. */
const BATCH = 100;

/** The limit comparison: each row's events/s beside the raw batched commit of its own store. */
interface LimitRow {
  /** `emmett`: @event-driven-io/emmett-postgresql on the same PostgreSQL server, the peer. */
  store: 'sqlite' | 'postgres' | 'emmett';
  name: 'raw single' | 'raw batched' | 'store';
  appenders: number;
  events: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const LIMIT_CASES = {
  rawSingle: 1500,
  rawBatches: 200,
  store: [
    { appenders: 1, eventsPerAppender: 1500 },
    { appenders: 64, eventsPerAppender: 200 },
  ],
} as const;

/** `batches` commits of BATCH events each, one after the other; latencies are per commit. */
async function runBatches(commitBatch: (streamId: string) => Promise<void>, batches: number, prefix: string) {
  const latencies = new Float64Array(batches);
  const started = performance.now();
  for (let i = 0; i < batches; i++) {
    const t0 = performance.now();
    await commitBatch(`${prefix}-${i}`);
    latencies[i] = performance.now() - t0;
  }
  return { latencies, elapsedMs: performance.now() - started };
}

function limitRow(
  store: LimitRow['store'],
  name: LimitRow['name'],
  appenders: number,
  events: number,
  run: { latencies: Float64Array; elapsedMs: number },
): LimitRow {
  const sorted = run.latencies.slice().sort();
  return {
    store,
    name,
    appenders,
    events,
    eventsPerSecond: (events / run.elapsedMs) * 1000,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
  };
}

/** SQLite: the same raw table as above, 100 rows per BEGIN IMMEDIATE; the single and store rows come from the cases above. */
async function runSqliteBatched(dir: string): Promise<LimitRow> {
  const raw = openRaw(path.join(dir, 'batched.sqlite'));
  raw.close();
  const db = new Database(path.join(dir, 'batched.sqlite'));
  try {
    db.pragma(`busy_timeout = ${CONNECTION.busyTimeoutMs}`);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${CONNECTION.synchronous}`);
    const insert = db.prepare(
      'INSERT INTO raw_events (event_id, stream_id, stream_position, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const commit = db.transaction((streamId: string) => {
      const recordedAt = new Date().toISOString();
      for (let i = 1; i <= BATCH; i++) insert.run(uuidv7(), streamId, i, EVENT.type, JSON.stringify(EVENT.data), '{}', recordedAt);
    });
    await runBatches(async (streamId) => commit.immediate(streamId), 10, 'warmup');
    const run = await runBatches(async (streamId) => commit.immediate(streamId), LIMIT_CASES.rawBatches, 'batch');
    return limitRow('sqlite', 'raw batched', 1, LIMIT_CASES.rawBatches * BATCH, run);
  } finally {
    db.close();
  }
}

/**
 * PostgreSQL on a private server: raw autocommit INSERTs into a table shaped like the store's `events`
 * (one per event, then 100 per statement), then the PostgresEventStore at 1 and 64 appenders.
 */
async function runPostgres(environment: string[]): Promise<LimitRow[]> {
  const server = await startPostgresServer();
  const url = await server.createDatabase('bench');
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
    const settings = await client.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'wal_sync_method') ORDER BY name",
    );
    const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
    environment.push(
      `postgresql     ${version} (node-postgres ${pgDriverVersion}), ${settings.rows.map((r) => `${r.name}=${r.setting}`).join(' ')}, private server on 127.0.0.1`,
    );
    await client.query(`CREATE TABLE raw_events (
      global_position bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
      event_id text NOT NULL,
      stream_id text NOT NULL,
      stream_position integer NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL,
      recorded_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX raw_events_stream_position_uq ON raw_events (stream_id, stream_position);
    CREATE UNIQUE INDEX raw_events_event_id_uq ON raw_events (event_id);`);
    const data = JSON.stringify(EVENT.data);
    const single: Append = async (streamId, expectedVersion) => {
      await client.query(
        'INSERT INTO raw_events (event_id, stream_id, stream_position, type, data, metadata, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [uuidv7(), streamId, expectedVersion + 1, EVENT.type, data, '{}', new Date().toISOString()],
      );
      return expectedVersion + 1;
    };
    // Each row its own JSON text and id, as a writer batching real events sends them (and as the store does).
    const batched = async (streamId: string) => {
      await client.query(
        `INSERT INTO raw_events (event_id, stream_id, stream_position, type, data, metadata, recorded_at)
         SELECT e, $2, p, $3, d, '{}', $5 FROM unnest($1::text[], $4::jsonb[]) WITH ORDINALITY AS u(e, d, p)`,
        [
          Array.from({ length: BATCH }, () => uuidv7()),
          streamId,
          EVENT.type,
          Array.from({ length: BATCH }, () => JSON.stringify(EVENT.data)),
          new Date().toISOString(),
        ],
      );
    };
    const rows: LimitRow[] = [];
    await runLoad(single, 1, WARMUP_EVENTS, 'warmup');
    rows.push(limitRow('postgres', 'raw single', 1, LIMIT_CASES.rawSingle, await runLoad(single, 1, LIMIT_CASES.rawSingle, 'single')));
    await runBatches(batched, 10, 'warmup-batch');
    rows.push(limitRow('postgres', 'raw batched', 1, LIMIT_CASES.rawBatches * BATCH, await runBatches(batched, LIMIT_CASES.rawBatches, 'batch')));
    rows.push(...(await runStoreAgainstPeer(server, environment)));
    return rows;
  } finally {
    await client.end().catch(() => undefined);
    server.stop();
  }
}

/**
 * The PostgresEventStore and the peer, emmett's PostgreSQL event store (appendToStream with the
 * expected stream version, as the store appends), each on a database of its own on the same server,
 * at 1 and 64 appenders: in alternating rounds, as the SQLite cases, so a burst of load from another
 * process (the machine is shared) or the server's checkpoint after the raw batches lands on both.
 */
async function runStoreAgainstPeer(server: PostgresServer, environment: string[]): Promise<LimitRow[]> {
  const emmett = requirePeer<EmmettPostgres>('@event-driven-io/emmett-postgresql');
  const version = peerVersion('@event-driven-io/emmett-postgresql');
  environment.push(`peer           @event-driven-io/emmett-postgresql ${version} on the same server, a database of its own, alternating rounds`);
  const rows: LimitRow[] = [];
  for (const { appenders, eventsPerAppender } of LIMIT_CASES.store) {
    const ours = new PostgresEventStore({ connectionString: await server.createDatabase(`store${appenders}`), poolSize: 8 });
    await ours.migrate();
    const peer = emmett.getPostgreSQLEventStore(await server.createDatabase(`emmett${appenders}`));
    try {
      await peer.schema.migrate();
      const sides: Array<{ store: LimitRow['store']; append: Append }> = [
        {
          store: 'postgres',
          append: (streamId, expectedVersion) => ours.append(streamId, expectedVersion, [EVENT]).then((result) => result.nextExpectedVersion),
        },
        {
          store: 'emmett',
          append: async (streamId, expectedVersion) => {
            const expectedStreamVersion = expectedVersion === 0 ? 'STREAM_DOES_NOT_EXIST' : BigInt(expectedVersion);
            const result = await peer.appendToStream(streamId, [{ type: EVENT.type, data: EVENT.data }], { expectedStreamVersion });
            return Number(result.nextExpectedStreamVersion);
          },
        },
      ];
      for (const side of sides) await runLoad(side.append, appenders, Math.max(1, Math.ceil(WARMUP_EVENTS / appenders)), `warmup-${appenders}`);
      const samples = sides.map(() => ({ latencies: [] as Float64Array[], elapsedMs: 0 }));
      const perRound = Math.ceil(eventsPerAppender / ROUNDS);
      for (let round = 0, done = 0; done < eventsPerAppender; round++, done += perRound) {
        const count = Math.min(perRound, eventsPerAppender - done);
        for (const [i, side] of sides.entries()) {
          // New streams each round, so every append's expected version stays the real one.
          const { latencies, elapsedMs } = await runLoad(side.append, appenders, count, `${side.store}-${appenders}-r${round}`);
          samples[i].latencies.push(latencies);
          samples[i].elapsedMs += elapsedMs;
        }
      }
      for (const [i, side] of sides.entries()) {
        const run = { latencies: concat(samples[i].latencies), elapsedMs: samples[i].elapsedMs };
        rows.push(limitRow(side.store, 'store', appenders, appenders * eventsPerAppender, run));
      }
    } finally {
      await peer.close();
      await ours.close();
    }
  }
  return rows;
}

function printLimits(rows: LimitRow[]): void {
  console.log('');
  console.log(`Against the batched limit (raw commits of ${BATCH} events each, same store, same run)`);
  const header = ['store', 'case', 'appenders', 'events', 'events/s', 'p50 ms', 'p99 ms', 'of limit'];
  const cells = rows.map((r) => {
    // The peer runs on the PostgreSQL server: its ratio is to that server's limit.
    const limitStore = r.store === 'emmett' ? 'postgres' : r.store;
    const limit = rows.find((l) => l.store === limitStore && l.name === 'raw batched');
    const ratio = limit ? r.eventsPerSecond / limit.eventsPerSecond : NaN;
    return [
      r.store,
      r.name,
      String(r.appenders),
      String(r.events),
      r.eventsPerSecond.toFixed(0),
      r.p50Ms.toFixed(3),
      r.p99Ms.toFixed(3),
      `${ratio.toFixed(2)}x`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  cells.forEach((row) => console.log(line(row)));
  for (const store of ['sqlite', 'postgres'] as const) {
    const at64 = rows.find((r) => r.store === store && r.name === 'store' && r.appenders === 64);
    const limit = rows.find((r) => r.store === store && r.name === 'raw batched');
    if (!at64 || !limit) continue;
    const ratio = at64.eventsPerSecond / limit.eventsPerSecond;
    console.log(`${store.padEnd(8)} store at 64 appenders / batched limit: ${ratio.toFixed(2)}x   target >= 0.50: ${ratio >= 0.5 ? 'met' : 'MISSED'}`);
  }
  for (const appenders of [1, 64]) {
    const ours = rows.find((r) => r.store === 'postgres' && r.name === 'store' && r.appenders === appenders);
    const peer = rows.find((r) => r.store === 'emmett' && r.appenders === appenders);
    if (!ours || !peer) continue;
    const ratio = ours.eventsPerSecond / peer.eventsPerSecond;
    console.log(
      `postgres store / emmett at ${String(appenders).padStart(2)} appenders: ${ratio.toFixed(2)}x   target > 1 (ahead of the peer): ${ratio > 1 ? 'met' : 'MISSED'}`,
    );
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-'));
  try {
    console.log('EventStore append benchmark');
    describeEnvironment(dir).forEach((line) => console.log(`  ${line}`));
    console.log('');
    const results: CaseResult[] = [];
    for (const { appenders, eventsPerAppender } of CASES) {
      results.push(...(await runCase(dir, appenders, eventsPerAppender)));
    }
    printResults(results);

    const fromCases = (name: Contender['name'], appenders: number, as: LimitRow['name']): LimitRow[] =>
      results.filter((r) => r.name === name && r.appenders === appenders).map((r) => ({ ...r, store: 'sqlite', name: as }));
    const environment: string[] = [];
    const limits = [
      ...fromCases('raw', 1, 'raw single'),
      await runSqliteBatched(dir),
      ...fromCases('store', 1, 'store'),
      ...fromCases('store', 64, 'store'),
      ...(await runPostgres(environment)),
    ];
    environment.forEach((line) => console.log(`\n  ${line}`));
    printLimits(limits);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

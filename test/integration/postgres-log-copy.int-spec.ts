import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { Client } from 'pg';
import type { StoredEvent } from '../../src/event-store/event-store.types';
import { copyLog, CopyRefusedError, type LogSource } from '../../src/event-store/postgres/copy-log';
import { importEvents, LogImportConflictError } from '../../src/event-store/postgres/log-import';
import type { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { StreamSummariesProjection } from '../../src/event-log/projections/stream-summaries.projection';
import { ProjectionRegistry } from '../../src/projections/projection-registry';
import { rebuildReadModels } from '../../src/projections/rebuild-pg-read-models';
import { openTestEventStore, type TestEventStore } from '../fixtures/event-store-fixture';
import { openPostgresEventStore } from '../fixtures/postgres-event-store-fixture';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

jest.setTimeout(180_000);

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Every event of a log, in global order, page by page. */
async function wholeLog(source: LogSource): Promise<StoredEvent[]> {
  const log: StoredEvent[] = [];
  for (;;) {
    const page = await source.readAll({ after: log.at(-1)?.globalPosition ?? 0, limit: 500 });
    log.push(...page);
    if (page.length < 500) return log;
  }
}

/** stream_summaries as it should be: a plain fold of the log, apart from the projection's code. */
function foldSummaries(log: readonly StoredEvent[]) {
  const rows = new Map<string, Record<string, unknown>>();
  for (const e of log) {
    const row = rows.get(e.streamId);
    const latest = { last_event_type: e.type, last_global_position: e.globalPosition, last_recorded_at: e.recordedAt };
    if (row) Object.assign(row, latest, { event_count: (row.event_count as number) + 1 });
    else
      rows.set(e.streamId, {
        stream_id: e.streamId,
        category: e.streamId.slice(0, e.streamId.indexOf('-')),
        event_count: 1,
        first_recorded_at: e.recordedAt,
        ...latest,
      });
  }
  return [...rows.values()].sort((a, b) => ((a.stream_id as string) < (b.stream_id as string) ? -1 : 1));
}

async function pgRows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

async function summariesOf(url: string) {
  const rows = await pgRows(url, 'SELECT * FROM stream_summaries ORDER BY stream_id COLLATE "C"');
  return rows.map((row) => ({
    ...row,
    last_global_position: Number(row.last_global_position),
    first_recorded_at: iso(row.first_recorded_at),
    last_recorded_at: iso(row.last_recorded_at),
  }));
}

function sqliteStreams(source: TestEventStore) {
  return source.database.connection.prepare('SELECT stream_id, version FROM streams ORDER BY stream_id').all();
}

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'maintenance.js'), 'store:copy-to-postgres', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

describe('copying the SQLite log into PostgreSQL', () => {
  let server: PostgresServer;
  let source: TestEventStore;
  let sourceLog: StoredEvent[];
  const stores: PostgresEventStore[] = [];

  async function emptyTarget(): Promise<{ url: string; store: PostgresEventStore }> {
    const url = await server.createDatabase();
    const store = await openPostgresEventStore(url);
    stores.push(store);
    return { url, store };
  }

  beforeAll(async () => {
    server = await startPostgresServer({ durable: false });
    source = openTestEventStore();
    // Streams of several categories, single appends and appendMany, metadata, unicode: 2,600 events, three batches.
    for (let round = 0; round < 100; round++) {
      await source.store.appendMany(
        [
          {
            streamId: `session-${round % 7}`,
            expectedVersion: 'any',
            events: Array.from({ length: 10 }, (_, i) => ({
              type: 'TurnRecorded',
              data: { round, i, text: `héllo ✓ 日本語 🚀 ${'"quoted" \\ back'}`, nested: { list: [1, 2.5, null, true], empty: {} } },
              metadata: { correlationId: `corr-${round}`, causationId: `cause-${i}`, actor: 'ünïcode' },
            })),
          },
          { streamId: `agent-${round % 3}`, expectedVersion: 'any', events: [{ type: 'AgentTouched', data: { round } }] },
        ],
        {},
      );
      await source.store.append(
        `run-${round}`,
        'no_stream',
        Array.from({ length: 15 }, (_, i) => ({ type: 'RunStep', data: { i } })),
      );
    }
    sourceLog = await wholeLog(source.store);
    expect(sourceLog).toHaveLength(2600);
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  afterAll(() => {
    source?.close();
    server?.stop();
  });

  it('copies every event with its position, id and recorded_at, the stream versions, and rebuilds stream_summaries', async () => {
    const { url, store } = await emptyTarget();
    const progress: number[] = [];
    const result = await copyLog(source.store, store, { onProgress: ({ copied, total }) => progress.push(copied / total) });

    expect(result).toEqual({ skipped: 0, copied: 2600, head: 2600 });
    expect(progress).toEqual([0, 1000 / 2600, 2000 / 2600, 1]);
    expect(await wholeLog(store)).toEqual(sourceLog);
    const targetStreams = await pgRows(url, 'SELECT stream_id, version FROM streams ORDER BY stream_id COLLATE "C"');
    expect(targetStreams).toEqual(sqliteStreams(source));

    const registry = new ProjectionRegistry();
    registry.register(new StreamSummariesProjection());
    expect(await rebuildReadModels(store, registry)).toEqual([{ projection: 'stream-summaries', tables: ['stream_summaries'], position: 2600 }]);
    expect(await summariesOf(url)).toEqual(foldSummaries(sourceLog));

    // The store appends after the copied head, its versions continuing the copied ones.
    const appended = await store.append('session-0', await source.store.streamVersion('session-0'), [{ type: 'After', data: {} }]);
    expect(appended.events[0]).toMatchObject({ globalPosition: 2601, streamPosition: (await source.store.streamVersion('session-0')) + 1 });
  });

  it('refuses a target whose log is not empty, writing nothing', async () => {
    const { store } = await emptyTarget();
    await store.append('other-1', 'no_stream', [{ type: 'Elsewhere', data: {} }]);
    await expect(copyLog(source.store, store)).rejects.toThrow(
      new CopyRefusedError(
        'the target log is not empty (head at position 1); copy into an empty database, or add --resume to continue a copy that stopped',
      ),
    );
    expect(await store.headPosition()).toBe(1);
  });

  it('resumes after a partial copy and ends equal', async () => {
    const { url, store } = await emptyTarget();
    await importEvents(store, 0, sourceLog.slice(0, 1234));
    const result = await copyLog(source.store, store, { resume: true });
    expect(result).toEqual({ skipped: 1234, copied: 1366, head: 2600 });
    expect(await wholeLog(store)).toEqual(sourceLog);
    expect(await pgRows(url, 'SELECT stream_id, version FROM streams ORDER BY stream_id COLLATE "C"')).toEqual(sqliteStreams(source));
  });

  it('refuses to resume on a target that is not a prefix, naming the first position that differs', async () => {
    const { store } = await emptyTarget();
    const other = sourceLog.slice(0, 10).map((e) => (e.globalPosition >= 7 ? { ...e, eventId: `${e.eventId}-other` } : e));
    await importEvents(store, 0, other);
    await expect(copyLog(source.store, store, { resume: true })).rejects.toThrow(
      'the target log is not a prefix of the source: position 7 differs; copy into an empty database instead of resuming',
    );
    expect(await store.headPosition()).toBe(10);
  });

  it('refuses a batch that does not follow the head the copy expects (another writer appended)', async () => {
    const { store } = await emptyTarget();
    await importEvents(store, 0, sourceLog.slice(0, 5));
    await store.append('other-1', 'no_stream', [{ type: 'Elsewhere', data: {} }]);
    await expect(importEvents(store, 5, sourceLog.slice(5, 10))).rejects.toThrow(LogImportConflictError);
    expect((await wholeLog(store)).map((e) => e.type)).toEqual([...sourceLog.slice(0, 5).map((e) => e.type), 'Elsewhere']);
  });

  it('stops at an event jsonb cannot hold (U+0000), naming it, with the batches before it copied', async () => {
    const nul = openTestEventStore();
    try {
      await nul.store.append('agent-1', 'no_stream', [{ type: 'Fine', data: { ok: true } }]);
      const { eventId } = (await nul.store.append('agent-1', 1, [{ type: 'HoldsNul', data: { text: 'a\0b' } }])).events[0];
      const { store } = await emptyTarget();
      await expect(copyLog(nul.store, store, { batchSize: 1 })).rejects.toThrow(
        `event ${eventId} (position 2, HoldsNul) holds a \\u0000 character, which PostgreSQL's jsonb cannot store`,
      );
      expect((await wholeLog(store)).map((e) => e.type)).toEqual(['Fine']);
    } finally {
      nul.close();
    }
  });

  it('runs as npm run store:copy-to-postgres: copies, refuses a second run in one line, resumes with --resume', async () => {
    const url = await server.createDatabase();
    const first = await run([url], { SWITCHBOARD_DB: source.file });
    expect(first).toMatchObject({ code: 0, stderr: expect.stringContaining('2,600/2,600 events  100%') });
    expect(first.stdout).toContain(`copied 2,600 events from ${source.file} to ${url}, up to position 2600\n`);
    expect(first.stdout).toContain('rebuilt stream-summaries (stream_summaries): replayed up to position 2600\n');
    // Every read model of the app, not only the summaries: the app started on this database finds them in step.
    for (const [projection, tables] of [
      ['agents', 'agents'],
      ['sessions', 'sessions'],
      ['runs', 'runs'],
      ['audit-log', 'audit_log'],
    ]) {
      expect(first.stdout).toContain(`rebuilt ${projection} (${tables}): replayed up to position 2600\n`);
    }
    expect(await pgRows(url, `SELECT position FROM projection_checkpoints WHERE projection_name = 'audit-log'`)).toEqual([{ position: '2600' }]);
    // Not a terminal: a line per tenth reached (0% first), never a redraw.
    expect(first.stderr.split('\n').filter((line) => line.startsWith('copying ')).length).toBeGreaterThanOrEqual(4);
    expect(first.stderr).not.toContain('\r');
    expect(await summariesOf(url)).toEqual(foldSummaries(sourceLog));

    const again = await run([url, '--from', source.file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'store:copy-to-postgres: the target log is not empty (head at position 2600); copy into an empty database, or add --resume to continue a copy that stopped\n',
    );

    const resumed = await run([url, '--from', source.file, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('copied 0 events');

    const usage = await run([]);
    expect(usage.code).toBe(2);
    const missing = await run([url, '--from', path.join(REPO_ROOT, 'no-such-file.db')]);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/no-such-file\.db does not exist; give the SQLite file with --from/) });
  });
});

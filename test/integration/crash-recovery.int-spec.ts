import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AckLine, WorkerEventData } from '../fixtures/append-worker';
import { openTestEventStore } from '../fixtures/event-store-fixture';
import { streamCategory } from '../../src/event-store/stream-ids';

/**
 * Real crashes: a child process appends as fast as it can (16 concurrent appenders, group commit,
 * synchronous=FULL) and is SIGKILLed mid-flight, several times on the same file. After each kill
 * the file is reopened here and checked against what the child acknowledged on stdout.
 *
 * Set CRASH_RECOVERY_REPORT=<file> to get the per-round figures as JSON (nothing is printed).
 */

const REPO_ROOT = path.resolve(__dirname, '../..');
const WORKER = path.join(REPO_ROOT, 'test/fixtures/append-worker.ts');
/** Acknowledged appends after which each round's worker is killed (plus some jitter). */
const KILL_AFTER = [250, 500, 750];
const KILL_JITTER = 150;
const ROUND_TIMEOUT_MS = 15_000;
/** Workers still running, killed in afterAll should the test end early. */
const live = new Set<ReturnType<typeof spawn>>();

interface Round {
  acks: AckLine[];
  signal: NodeJS.Signals | null;
  code: number | null;
  stderr: string;
}

/** Starts the worker on `file`, SIGKILLs it once it acknowledged `killAfter` appends, returns what it acknowledged. */
function runWorkerUntilKilled(file: string, killAfter: number): Promise<Round> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', WORKER, file], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    const acks: AckLine[] = [];
    let pending = '';
    let stderr = '';
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(kill, ROUND_TIMEOUT_MS);

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? ''; // a line cut by the kill has no newline yet: not an acknowledgement
      for (const line of lines) if (line.length > 0) acks.push(JSON.parse(line) as AckLine);
      if (acks.length >= killAfter) kill();
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ acks, code, signal, stderr });
    });
  });
}

interface EventRow {
  global_position: number;
  event_id: string;
  stream_id: string;
  stream_position: number;
  type: string;
  data: string;
  recorded_at: string;
}

interface SummaryRow {
  stream_id: string;
  category: string;
  event_count: number;
  last_event_type: string;
  last_global_position: number;
  first_recorded_at: string;
  last_recorded_at: string;
}

const SAMPLE = 5;

/** Reopens the file and compares it with every acknowledgement so far. */
function inspect(file: string, acks: AckLine[], kills: number) {
  const fixture = openTestEventStore(file); // runs quick_check and WAL recovery on open
  try {
    const db = fixture.database.connection;
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    const rows = db
      .prepare('SELECT global_position, event_id, stream_id, stream_position, type, data, recorded_at FROM events ORDER BY global_position')
      .all() as EventRow[];
    const streams = db.prepare('SELECT stream_id, version FROM streams').all() as Array<{ stream_id: string; version: number }>;
    const summaries = db.prepare('SELECT * FROM stream_summaries ORDER BY stream_id').all() as SummaryRow[];

    const byId = new Map<string, EventRow[]>();
    for (const row of rows) byId.set(row.event_id, [...(byId.get(row.event_id) ?? []), row]);

    // 1. Every acknowledged event is there, exactly once, where the acknowledgement said.
    const lost: string[] = [];
    const duplicated: string[] = [];
    const misplaced: string[] = [];
    const ackedIds = new Set<string>();
    const ackedPositions = new Set<number>();
    let acknowledgedEvents = 0;
    for (const ack of acks) {
      ack.ids.forEach((id, i) => {
        acknowledgedEvents++;
        if (ackedIds.has(id) || ackedPositions.has(ack.globalPositions[i])) duplicated.push(`acknowledged twice: ${id}`);
        ackedIds.add(id);
        ackedPositions.add(ack.globalPositions[i]);
        const found = byId.get(id) ?? [];
        if (found.length === 0) return void lost.push(`${ack.stream}@${ack.streamPositions[i]} ${id}`);
        if (found.length > 1) duplicated.push(`${id} stored ${found.length} times`);
        const row = found[0];
        const data = JSON.parse(row.data) as WorkerEventData;
        if (
          row.global_position !== ack.globalPositions[i] ||
          row.stream_id !== ack.stream ||
          row.stream_position !== ack.streamPositions[i] ||
          data.writer !== ack.writer ||
          data.batch !== ack.batch ||
          data.index !== i ||
          data.batchSize !== ack.batchSize
        ) {
          misplaced.push(
            `${id}: acknowledged ${ack.stream}@${ack.streamPositions[i]}/#${ack.globalPositions[i]}, stored ${row.stream_id}@${row.stream_position}/#${row.global_position}`,
          );
        }
      });
    }
    // Acknowledgements come in commit order: one process, one writer connection, promises settled in batch order.
    const outOfOrderAcks: string[] = [];
    const ackedInOrder = acks.flatMap((a) => a.globalPositions);
    for (let i = 1; i < ackedInOrder.length; i++) {
      if (ackedInOrder[i] <= ackedInOrder[i - 1]) outOfOrderAcks.push(`#${ackedInOrder[i]} acknowledged after #${ackedInOrder[i - 1]}`);
    }

    // 2. No append is half there: each batch is whole, in one stream, at contiguous positions.
    const batches = new Map<string, EventRow[]>();
    for (const row of rows) {
      const data = JSON.parse(row.data) as WorkerEventData;
      const key = `${data.writer}#${data.batch}`;
      batches.set(key, [...(batches.get(key) ?? []), row]);
    }
    const halfWritten: string[] = [];
    for (const [key, members] of batches) {
      const datas = members.map((m) => JSON.parse(m.data) as WorkerEventData);
      const size = datas[0].batchSize;
      const whole =
        members.length === size &&
        datas.every((d, i) => d.index === i && d.batchSize === size) &&
        members.every((m) => m.stream_id === members[0].stream_id) &&
        members.every((m, i) => m.stream_position === members[0].stream_position + i) &&
        members.every((m, i) => m.global_position === members[0].global_position + i);
      if (!whole) {
        halfWritten.push(`${key}: ${members.length}/${size} events at ${members.map((m) => `${m.stream_id}@${m.stream_position}`).join(',')}`);
      }
    }

    // 3. Stream versions equal event counts; stream positions are 1..version without gaps, in global order.
    const streamProblems: string[] = [];
    const perStream = new Map<string, EventRow[]>();
    for (const row of rows) perStream.set(row.stream_id, [...(perStream.get(row.stream_id) ?? []), row]);
    const versions = new Map(streams.map((s) => [s.stream_id, s.version]));
    for (const [streamId, version] of versions) {
      if (!perStream.has(streamId)) streamProblems.push(`${streamId}: version ${version} but no events`);
    }
    for (const [streamId, members] of perStream) {
      const version = versions.get(streamId);
      if (version !== members.length) streamProblems.push(`${streamId}: version ${version}, ${members.length} events`);
      const gap = members.findIndex((m, i) => m.stream_position !== i + 1);
      if (gap >= 0) streamProblems.push(`${streamId}: position ${members[gap].stream_position} where ${gap + 1} was due`);
    }

    // 4. Global positions strictly increase (in the log, and along each stream).
    const orderProblems = [...outOfOrderAcks];
    rows.forEach((row, i) => {
      if (i > 0 && row.global_position <= rows[i - 1].global_position)
        orderProblems.push(`log: #${row.global_position} after #${rows[i - 1].global_position}`);
    });

    // 5. The inline read model equals a recomputation from the log.
    const recomputed = new Map<string, SummaryRow>();
    for (const row of rows) {
      const previous = recomputed.get(row.stream_id);
      recomputed.set(row.stream_id, {
        stream_id: row.stream_id,
        category: streamCategory(row.stream_id),
        event_count: (previous?.event_count ?? 0) + 1,
        last_event_type: row.type,
        last_global_position: row.global_position,
        first_recorded_at: previous?.first_recorded_at ?? row.recorded_at,
        last_recorded_at: row.recorded_at,
      });
    }
    const summaryProblems: string[] = [];
    const stored = new Map(summaries.map((s) => [s.stream_id, s]));
    for (const [streamId, expected] of recomputed) {
      const actual = stored.get(streamId);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        summaryProblems.push(`${streamId}: stored ${JSON.stringify(actual)}, recomputed ${JSON.stringify(expected)}`);
      }
    }
    for (const streamId of stored.keys()) {
      if (!recomputed.has(streamId)) summaryProblems.push(`${streamId}: summary row without events`);
    }

    const problems = {
      integrity: integrity.join(';') === 'ok' ? 0 : integrity.length,
      lost: lost.length,
      duplicated: duplicated.length,
      misplaced: misplaced.length,
      halfWritten: halfWritten.length,
      streamProblems: streamProblems.length,
      orderProblems: orderProblems.length,
      summaryProblems: summaryProblems.length,
    };
    const samples = Object.fromEntries(
      Object.entries({ integrity, lost, duplicated, misplaced, halfWritten, streamProblems, orderProblems, summaryProblems })
        .filter(([name, list]) => (name === 'integrity' ? problems.integrity > 0 : list.length > 0))
        .map(([name, list]) => [name, list.slice(0, SAMPLE)]),
    );
    return {
      figures: {
        kills,
        acknowledgedAppends: acks.length,
        acknowledgedEvents,
        eventsFound: rows.length,
        appendsFound: batches.size,
        committedButUnacknowledgedAppends: [...batches.values()].filter((m) => !ackedIds.has(m[0].event_id)).length,
        streams: perStream.size,
      },
      problems,
      samples,
    };
  } finally {
    fixture.close();
  }
}

const NO_PROBLEMS = {
  integrity: 0,
  lost: 0,
  duplicated: 0,
  misplaced: 0,
  halfWritten: 0,
  streamProblems: 0,
  orderProblems: 0,
  summaryProblems: 0,
};

function verdict(report: { round: number; figures: ReturnType<typeof inspect>['figures']; problems: typeof NO_PROBLEMS }): string {
  const f = report.figures;
  const problems = Object.entries(report.problems)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  return (
    `after kill ${f.kills}: acknowledged ${f.acknowledgedAppends} appends / ${f.acknowledgedEvents} events, ` +
    `found ${f.appendsFound} appends / ${f.eventsFound} events (${f.committedButUnacknowledgedAppends} committed but unacknowledged) ` +
    `in ${f.streams} streams; problems: ${problems}`
  );
}

describe('EventStore crash recovery (SIGKILL during group commits)', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-crash-'));
  });

  afterAll(() => {
    for (const child of live) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged append, whole and once, across ${KILL_AFTER.length} SIGKILLs on the same file`, async () => {
    const file = path.join(dir, 'crash.db');
    const acks: AckLine[] = [];
    const reports: Array<ReturnType<typeof inspect> & { round: number; roundAcks: number }> = [];

    for (const [round, base] of KILL_AFTER.entries()) {
      const killAfter = base + Math.floor(Math.random() * KILL_JITTER);
      const result = await runWorkerUntilKilled(file, killAfter);
      // Killed by us, not dead of its own accord, and only after it acknowledged enough.
      expect({ round, signal: result.signal, code: result.code, stderr: result.stderr }).toEqual({
        round,
        signal: 'SIGKILL',
        code: null,
        stderr: '',
      });
      expect({ round, enoughAcks: result.acks.length >= killAfter, acks: result.acks.length, killAfter }).toEqual({
        round,
        enoughAcks: true,
        acks: result.acks.length,
        killAfter,
      });
      acks.push(...result.acks);

      const report = { round, roundAcks: result.acks.length, ...inspect(file, acks, round + 1) };
      reports.push(report);
      // One line with the figures and the problem counts, plus samples of each problem: printed in full on failure.
      expect({ verdict: verdict(report), samples: report.samples }).toEqual({
        verdict: verdict({ ...report, problems: NO_PROBLEMS }),
        samples: {},
      });
    }

    const last = reports[reports.length - 1];
    expect(last.figures.kills).toBe(KILL_AFTER.length);
    expect(last.figures.acknowledgedAppends).toBeGreaterThanOrEqual(KILL_AFTER.reduce((a, b) => a + b, 0));
    expect(last.figures.eventsFound).toBeGreaterThanOrEqual(last.figures.acknowledgedEvents);

    if (process.env.CRASH_RECOVERY_REPORT) {
      fs.writeFileSync(process.env.CRASH_RECOVERY_REPORT, `${JSON.stringify(reports, null, 2)}\n`);
    }
  }, 90_000);
});

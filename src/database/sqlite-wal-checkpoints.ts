import { Logger } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './sqlite-database';

/** How often the WAL is looked at; a checkpoint runs when it was written to since the last one. */
const CHECKPOINT_INTERVAL_MS = 1000;
/** SQLite's own wal_autocheckpoint, put back if the worker cannot run. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * The worker's program (plain CommonJS, run with `eval`, so it loads the same way under the compiled app, the
 * swc-registered benches and jest): its own connection to the file, a PASSIVE checkpoint per message.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
db.pragma('synchronous = FULL');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ frames: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
`;

interface CheckpointReply {
  frames?: number;
  checkpointed?: number;
  error?: string;
}

/**
 * issue 41: WAL checkpoints off the event loop. SQLite checkpoints inside the COMMIT that crosses
 * wal_autocheckpoint (1000 pages): it copies the WAL into the database file and fsyncs both, on the thread
 * that commits, tens of milliseconds now and then. The service's connection stops doing that
 * (wal_autocheckpoint=0) and a worker thread with a connection of its own runs a PASSIVE checkpoint once a
 * second when the WAL was written to: PASSIVE never waits for the writer and never blocks it, and the
 * writer restarts the WAL from its start once a checkpoint copied all of it. If the worker cannot start or
 * fails, the connection checkpoints itself again, as before.
 */
export class SqliteWalCheckpoints {
  private readonly logger = new Logger(SqliteWalCheckpoints.name);
  private worker?: Worker;
  private timer?: NodeJS.Timeout;
  private running = false;
  private lastWrite = 0;
  private checkpoints = 0;
  private lastFrames = 0;

  constructor(
    private readonly database: SqliteDatabase,
    private readonly intervalMs = CHECKPOINT_INTERVAL_MS,
  ) {}

  /** Checkpoints run so far, and the WAL's length in frames at the last one (for /health). */
  stats(): { checkpoints: number; walFrames: number; offLoop: boolean } {
    return { checkpoints: this.checkpoints, walFrames: this.lastFrames, offLoop: this.worker !== undefined };
  }

  start(): void {
    const { connection, file } = this.database;
    if (file === ':memory:' || String(connection.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return;
    try {
      this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver: require.resolve('better-sqlite3'), file: path.resolve(file) } });
    } catch (error) {
      this.logger.warn({ err: error }, 'WAL checkpoints stay on the event loop: the checkpoint worker did not start');
      return;
    }
    connection.pragma('wal_autocheckpoint = 0');
    this.worker.unref(); // never what keeps a process alive
    this.worker.on('message', (reply: CheckpointReply) => this.onReply(reply));
    this.worker.on('error', (error) => this.fallBack(error));
    this.timer = setInterval(() => this.checkpointIfWritten(), this.intervalMs);
    this.timer.unref();
  }

  /** Ends the worker (its connection closes; the service's own close checkpoints what is left). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    // Held while it closes: at a start-up refusal nothing else may keep the loop alive, and an unref'd wait
    // would let the process end here, with exit code 0, before the refusal is written.
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)));
    await Promise.race([exited, timeout]);
    clearTimeout(timer);
    await worker.terminate();
  }

  private checkpointIfWritten(): void {
    if (this.running || !this.worker) return;
    fs.stat(`${path.resolve(this.database.file)}-wal`, (error, stat) => {
      if (error || !this.worker || this.running || stat.mtimeMs === this.lastWrite) return;
      this.lastWrite = stat.mtimeMs;
      this.running = true;
      this.worker.postMessage('checkpoint');
    });
  }

  private onReply(reply: CheckpointReply): void {
    this.running = false;
    if (reply.error !== undefined) {
      this.logger.warn({ error: reply.error }, 'a WAL checkpoint failed; the next one tries again');
      return;
    }
    this.checkpoints += 1;
    this.lastFrames = reply.frames ?? 0;
  }

  private fallBack(error: Error): void {
    this.logger.error({ err: error }, 'the WAL checkpoint worker failed; the connection checkpoints itself again');
    clearInterval(this.timer);
    this.worker = undefined;
    if (this.database.connection.open) this.database.connection.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  }
}

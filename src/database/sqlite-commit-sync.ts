import * as fs from 'node:fs';
import * as path from 'node:path';

/** How a SQLite file's commits become durable. */
export type CommitDurability =
  /** synchronous=FULL asked for on a WAL file: the WAL is synced on libuv's thread pool, never on the event loop. */
  | 'wal-sync-off-loop'
  /** synchronous=NORMAL asked for: a commit is acknowledged once written to the WAL, not synced (a power loss may lose the last ones). */
  | 'not-synced'
  /** A memory database, or a journal mode other than WAL: commits keep the connection's own setting. */
  | 'connection';

/**
 * issue 41: durable commits that never hold the event loop. With synchronous=FULL, SQLite fsyncs the WAL
 * inside COMMIT, on the thread that commits: the event loop, for milliseconds, during which no model
 * call, tool call or HTTP request moves. Instead the connection commits with synchronous=NORMAL (the
 * commit's frames are written to the WAL file and visible, not yet synced) and `durable()` fdatasyncs the
 * WAL file on libuv's thread pool. What is written to a file before an fdatasync starts is on the disk when
 * it ends, so a commit is durable once a sync that began after it has ended: the store acknowledges an
 * append (and publishes its events) only then. One sync runs at a time and every commit that asked while it
 * ran shares the next one, as appends share a commit. A crash of the process loses nothing either way (the
 * WAL is in the OS's cache); a power loss can only lose commits nobody was told about. WAL recovery stops at
 * the first frame that was not synced, so what survives is always a prefix of the log.
 */
export class SqliteCommitSync {
  readonly durability: CommitDurability;
  private readonly walFile: string;
  private walFd?: number;
  private running = false;
  /** Commits waiting for a sync that has not started yet. */
  private next?: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void };
  private syncs = 0;

  constructor(file: string, durability: CommitDurability) {
    this.durability = durability;
    this.walFile = `${path.resolve(file)}-wal`;
  }

  /** Syncs started since the start: with commits per second, how many commits each sync carried. */
  get syncCount(): number {
    return this.syncs;
  }

  /** Resolves once every commit made before this call is on the disk (at once when commits are not synced here). */
  durable(): Promise<void> {
    if (this.durability !== 'wal-sync-off-loop') return Promise.resolve();
    if (!this.next) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      this.next = { promise, resolve, reject };
    }
    const { promise } = this.next;
    // A sync running now may have started before this commit: this one waits for the next.
    if (!this.running) this.startSync();
    return promise;
  }

  /** The same, synchronously: at shutdown, after the last commit, before the connection closes. */
  durableNow(): void {
    if (this.durability !== 'wal-sync-off-loop') return;
    const fd = this.openWal();
    if (fd !== undefined) fs.fdatasyncSync(fd);
    const waiting = this.next;
    this.next = undefined;
    waiting?.resolve();
  }

  close(): void {
    if (this.walFd !== undefined) fs.closeSync(this.walFd);
    this.walFd = undefined;
  }

  private startSync(): void {
    const waiting = this.next;
    if (!waiting) return;
    this.next = undefined;
    let fd: number | undefined;
    try {
      fd = this.openWal();
    } catch (error) {
      waiting.reject(error as Error);
      return;
    }
    if (fd === undefined) {
      waiting.resolve(); // no WAL file: nothing was written to sync
      return;
    }
    this.running = true;
    this.syncs += 1;
    fs.fdatasync(fd, (error) => {
      this.running = false;
      if (error) waiting.reject(error);
      else waiting.resolve();
      if (this.next) this.startSync();
    });
  }

  /**
   * The WAL file, opened once: it keeps its inode while the database is open (SQLite deletes it only when
   * the last connection closes, and a restart of the WAL rewrites it in place). Its folder entry is synced
   * once too, as SQLite does when it creates a journal.
   */
  private openWal(): number | undefined {
    if (this.walFd !== undefined) return this.walFd;
    try {
      this.walFd = fs.openSync(this.walFile, fs.constants.O_RDWR);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const folder = fs.openSync(path.dirname(this.walFile), fs.constants.O_RDONLY);
    try {
      fs.fsyncSync(folder);
    } finally {
      fs.closeSync(folder);
    }
    return this.walFd;
  }
}

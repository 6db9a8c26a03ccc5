import * as fs from 'node:fs';
import * as path from 'node:path';
import { type DatabaseCheck, DatabaseHealth, migrationsCheck } from './database-health';
import { defaultMigrationsFolder } from './migrations';
import type { SqliteDatabase } from './sqlite-database';
import type { SqliteWalCheckpoints } from './sqlite-wal-checkpoints';

/** The write lock must be free within this; the writer's own busy timeout (seconds) would stall the probe. */
const LOCK_PROBE_TIMEOUT_MS = 100;
/** Below this much free space on the database's disk the next commit may fail with SQLITE_FULL. */
const MIN_FREE_BYTES = 1024 * 1024;

/** The SQLite file: its journal mode and synchronous setting; writable = the write lock can be taken, and the disk has room. */
export class SqliteDatabaseHealth extends DatabaseHealth {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly checkpoints?: SqliteWalCheckpoints,
    private readonly migrationsFolder = defaultMigrationsFolder(),
  ) {
    super();
  }

  describe(): Promise<Record<string, unknown>> {
    const { connection, file } = this.database;
    try {
      return Promise.resolve({
        dialect: 'sqlite',
        file,
        journalMode: connection.pragma('journal_mode', { simple: true }),
        // What was asked for: with FULL the connection commits with NORMAL and the WAL is synced off the loop.
        synchronous:
          this.database.commitSync.durability === 'wal-sync-off-loop'
            ? 'FULL'
            : ['OFF', 'NORMAL', 'FULL', 'EXTRA'][Number(connection.pragma('synchronous', { simple: true }))],
        commitSync: this.database.commitSync.durability,
        ...(this.checkpoints ? { walCheckpoints: this.checkpoints.stats() } : {}),
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async check(): Promise<{ database: DatabaseCheck; migrations: DatabaseCheck }> {
    return {
      database: this.writable(),
      migrations: await migrationsCheck(this.migrationsFolder, () =>
        (this.database.connection.prepare('SELECT created_at AS at FROM __drizzle_migrations').all() as Array<{ at: number }>).map((r) => r.at),
      ),
    };
  }

  /** Takes the write lock and lets it go (BEGIN IMMEDIATE; ROLLBACK), and looks at the space left on its disk. */
  private writable(): DatabaseCheck {
    const { connection, file } = this.database;
    try {
      if (!connection.open) return { ok: false, reason: `the database ${file} is closed` };
      // Inside a transaction the writer is busy writing: that is writable enough.
      if (!connection.inTransaction) {
        const busyTimeout = connection.pragma('busy_timeout', { simple: true }) as number;
        connection.pragma(`busy_timeout = ${LOCK_PROBE_TIMEOUT_MS}`);
        try {
          connection.exec('BEGIN IMMEDIATE');
          connection.exec('ROLLBACK');
        } finally {
          connection.pragma(`busy_timeout = ${busyTimeout}`);
        }
      }
    } catch (error) {
      return { ok: false, reason: `the database ${file} does not take writes: ${(error as Error).message}` };
    }
    try {
      const disk = fs.statfsSync(path.dirname(path.resolve(file)));
      const freeBytes = disk.bavail * disk.bsize;
      if (freeBytes < MIN_FREE_BYTES) {
        return { ok: false, reason: `the disk holding ${file} is full (${freeBytes} bytes free)`, freeBytes };
      }
      return { ok: true, freeBytes };
    } catch {
      return { ok: true }; // no statfs here: the lock probe is all we know
    }
  }
}

import type Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema';
import { SqliteReadModels } from './sqlite-read-models';
import { type CommitDurability, SqliteCommitSync } from './sqlite-commit-sync';
import { withStatementCache } from './sqlite-statement-cache';

/** PRAGMA synchronous's values: in WAL mode NORMAL writes the WAL without fsync, FULL fsyncs it in COMMIT. */
const SYNCHRONOUS_NORMAL = 1;
const SYNCHRONOUS_FULL = 2;

export type Orm = BetterSQLite3Database<typeof schema>;

/**
 * The process's single writer connection and the drizzle ORM over it. better-sqlite3 is synchronous,
 * so every transaction callback on it must be synchronous too (an async one commits early).
 */
export class SqliteDatabase {
  readonly orm: Orm;
  /** The same connection as the read models' port: what projections and shared read code are given. */
  readonly readModels: SqliteReadModels;

  /** How commits become durable (reported by /health): see SqliteCommitSync. */
  readonly commitSync: SqliteCommitSync;

  constructor(
    readonly connection: Database.Database,
    readonly file: string,
  ) {
    this.commitSync = new SqliteCommitSync(file, takeOverCommitSync(connection, file));
    this.orm = drizzle(connection, { schema });
    // Projections run their statements through it for every event: compiled once, not per event.
    this.readModels = new SqliteReadModels(drizzle(withStatementCache(connection), { schema }));
  }

  /**
   * Makes this connection's commits durable when asked, off the event loop (SqliteCommitSync): with
   * synchronous=FULL asked for on a WAL file, the connection itself commits with NORMAL and whoever
   * acknowledges a write awaits `durable()`. The event store does for every append.
   */
  durable(): Promise<void> {
    return this.commitSync.durable();
  }

  get isOpen(): boolean {
    return this.connection.open;
  }

  close(): void {
    if (this.connection.open) {
      this.commitSync.durableNow();
      this.connection.close();
    }
    this.commitSync.close();
  }
}

/**
 * Decides who syncs the connection's commits. A WAL file opened with synchronous=FULL (or EXTRA) is switched
 * to NORMAL: the WAL is then synced by SqliteCommitSync, off the event loop, before anything is acknowledged.
 */
function takeOverCommitSync(connection: Database.Database, file: string): CommitDurability {
  if (file === ':memory:' || !connection.open) return 'connection';
  const wal = String(connection.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
  if (!wal) return 'connection';
  const synchronous = Number(connection.pragma('synchronous', { simple: true }));
  if (synchronous < SYNCHRONOUS_FULL) return 'not-synced';
  connection.pragma(`synchronous = ${SYNCHRONOUS_NORMAL}`);
  return 'wal-sync-off-loop';
}

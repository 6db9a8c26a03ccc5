import type Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema';
import { SqliteReadModels } from './sqlite-read-models';
import { withStatementCache } from './sqlite-statement-cache';

/** PRAGMA synchronous's NORMAL: in WAL mode a commit writes the WAL without fsync. */
const SYNCHRONOUS_NORMAL = 1;

export type Orm = BetterSQLite3Database<typeof schema>;

/**
 * The process's single writer connection and the drizzle ORM over it. better-sqlite3 is synchronous,
 * so every transaction callback on it must be synchronous too (an async one commits early).
 */
export class SqliteDatabase {
  readonly orm: Orm;
  /** The same connection as the read models' port: what projections and shared read code are given. */
  readonly readModels: SqliteReadModels;

  constructor(
    readonly connection: Database.Database,
    readonly file: string,
  ) {
    this.orm = drizzle(connection, { schema });
    // Projections run their statements through it for every event: compiled once, not per event.
    this.readModels = new SqliteReadModels(drizzle(withStatementCache(connection), { schema }));
  }

  /**
   * Runs `work` (one synchronous transaction) with its commit not fsynced: for writes that can be
   * derived again from the log, such as an async projection's batch and its checkpoint. In WAL mode
   * the log keeps its promise: the next append's commit (synchronous=FULL) syncs the WAL up to its
   * end, this transaction's frames included, and a power loss before that can only lose such a batch
   * together with its checkpoint, which the projection then applies again. Another mode (a memory
   * database, a journal) keeps the configured setting. better-sqlite3 is synchronous, so nothing else
   * commits on the connection between the two pragmas.
   */
  withoutCommitSync<T>(work: () => T): T {
    const configured = Number(this.connection.pragma('synchronous', { simple: true }));
    const wal = String(this.connection.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
    if (!wal || configured <= SYNCHRONOUS_NORMAL) return work();
    this.connection.pragma(`synchronous = ${SYNCHRONOUS_NORMAL}`);
    try {
      return work();
    } finally {
      this.connection.pragma(`synchronous = ${configured}`);
    }
  }

  get isOpen(): boolean {
    return this.connection.open;
  }

  close(): void {
    if (this.connection.open) this.connection.close();
  }
}

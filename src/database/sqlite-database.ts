import type Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema';
import { SqliteReadModels } from './sqlite-read-models';
import { withStatementCache } from './sqlite-statement-cache';

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

  get isOpen(): boolean {
    return this.connection.open;
  }

  close(): void {
    if (this.connection.open) this.connection.close();
  }
}

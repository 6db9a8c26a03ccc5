import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type * as pgSchema from './schema-pg';

export type Dialect = 'sqlite' | 'postgres';

/** Every read-model table, typed as the PostgreSQL twins (same names, columns and JavaScript types on SQLite). */
export type ReadTables = typeof pgSchema;
/** A read-model table's key in `ReadTables` (what a projection names to be emptied on rebuild). */
export type ReadTableName = keyof ReadTables;
/** drizzle over the read models, typed as PostgreSQL's: awaited only (`.all()`, `.get()`, `.run()` exist on SQLite alone). */
export type ReadOrm = NodePgDatabase<typeof pgSchema>;

/**
 * Where the read models live, whichever database holds them: read and projection code is written
 * once against it. `orm` and `tables` are the dialect's own (drizzle maps each column its way), typed
 * as PostgreSQL's; the SQLite builders take the same calls and run when awaited. Where the two SQL
 * dialects differ (JSON functions, row values), the query branches on `dialect` in that one place.
 * Bind it, don't construct it: `SqliteReadModels` (`sqlite-read-models.ts`), `PostgresReadModels`.
 */
export abstract class ReadModelDatabase {
  abstract readonly dialect: Dialect;
  abstract readonly orm: ReadOrm;
  abstract readonly tables: ReadTables;
}

import { ReadModelDatabase, type ReadOrm, type ReadTables } from './read-model-database';
import * as sqliteSchema from './schema';
import type { Orm } from './sqlite-database';

/**
 * The read models on SQLite. The one cast between the dialects sits here: the SQLite schema's
 * tables and drizzle instance stand in for the PostgreSQL types the shared code is written against
 * (`src/database/schema-pg/schema-twins.spec.ts` keeps the two schemas the same).
 */
export class SqliteReadModels extends ReadModelDatabase {
  readonly dialect = 'sqlite' as const;
  readonly orm: ReadOrm;
  readonly tables: ReadTables;

  constructor(orm: Orm) {
    super();
    // The dialect seam: drizzle's SQLite and PostgreSQL types share no declarations, only their shapes (schema-twins.spec.ts).
    const asPostgres = { orm, tables: sqliteSchema } as unknown as { orm: ReadOrm; tables: ReadTables };
    this.orm = asPostgres.orm;
    this.tables = asPostgres.tables;
  }
}

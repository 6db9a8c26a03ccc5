import { drizzle } from 'drizzle-orm/node-postgres';
import type { Pool, PoolClient } from 'pg';
import { ReadModelDatabase, type ReadOrm, type ReadTables } from './read-model-database';
import * as pgSchema from './schema-pg';

/** The read models on PostgreSQL: the pool for queries, or one transaction's client for a projection. */
export class PostgresReadModels extends ReadModelDatabase {
  readonly dialect = 'postgres' as const;
  readonly orm: ReadOrm;
  readonly tables: ReadTables = pgSchema;

  constructor(client: Pool | PoolClient) {
    super();
    this.orm = drizzle(client, { schema: pgSchema });
  }
}

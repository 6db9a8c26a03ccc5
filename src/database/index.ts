/**
 * The database context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside database/ import each other directly, never this file.
 */
export { DatabaseHealth } from './database-health';
export { DatabaseModule } from './database.module';
export { equalsWhenGiven, whenGiven } from './given-conditions';
export { KeyedBatch, KeyedReadBatch, byLimit, jsonArrayRows, jsonArrayValues, tableIndexedBy } from './keyed-batch';
export type { KeyField } from './keyed-batch';
export { applyPendingMigrations, migratePostgres } from './migrations';
export { createPostgresPool } from './postgres-pool';
export { PostgresReadModels } from './postgres-read-models';
export { ReadModelDatabase } from './read-model-database';
export type { Dialect, ReadTableName, ReadTables } from './read-model-database';
export { openSqliteConnection } from './sqlite-connection';
export { SqliteDatabase } from './sqlite-database';
export type { Orm } from './sqlite-database';
export { TABLE_OWNERS } from './table-owners';

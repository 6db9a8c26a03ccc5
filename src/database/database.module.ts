import { DynamicModule, Logger, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import * as path from 'node:path';
import { Pool } from 'pg';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig, withoutPassword } from '../config';
import { DatabaseHealth } from './database-health';
import { applyPendingMigrations, migratePostgres } from './migrations';
import { PostgresDatabaseHealth, postgresTarget } from './postgres-database-health';
import { createPostgresPool } from './postgres-pool';
import { PostgresReadModels } from './postgres-read-models';
import { ReadModelDatabase } from './read-model-database';
import { openSqliteConnection } from './sqlite-connection';
import { SqliteDatabase } from './sqlite-database';
import { SqliteDatabaseHealth } from './sqlite-database-health';
import { SqliteWalCheckpoints } from './sqlite-wal-checkpoints';

/**
 * The database the configuration names, opened, checked and migrated before anything else starts,
 * and closed last. Either the SQLite file (`SqliteDatabase`, the default) or, with
 * SWITCHBOARD_DATABASE_URL, a PostgreSQL pool (`Pool`). Both dialects give the rest of the app the
 * same ports: `ReadModelDatabase` (read models) and `DatabaseHealth` (/health, /health/ready).
 */
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(
    @Optional() private readonly sqlite?: SqliteDatabase,
    @Optional() private readonly pool?: Pool,
    @Optional() private readonly checkpoints?: SqliteWalCheckpoints,
  ) {}

  static forRoot(config: SwitchboardConfig): DynamicModule {
    const providers = config.postgres ? postgresProviders() : sqliteProviders();
    return {
      module: DatabaseModule,
      global: true,
      providers,
      exports: providers.map((provider) => provider.provide),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.checkpoints?.stop();
    if (this.sqlite) {
      this.sqlite.close();
      new Logger('Database').log({ file: this.sqlite.file }, 'database closed');
    }
    if (this.pool && !this.pool.ended) {
      await this.pool.end();
      new Logger('Database').log('PostgreSQL pool closed');
    }
  }
}

function sqliteProviders() {
  return [
    {
      provide: SqliteDatabase,
      inject: [SWITCHBOARD_CONFIG],
      useFactory: (config: SwitchboardConfig) => {
        const logger = new Logger('Database');
        const connection = openSqliteConnection(config.database);
        try {
          applyPendingMigrations(connection);
        } catch (error) {
          connection.close();
          throw new Error(`Migrations failed on ${path.resolve(config.database.file)}; the database was left as it was: ${(error as Error).message}`, {
            cause: error,
          });
        }
        const database = new SqliteDatabase(connection, config.database.file);
        logger.log({ file: config.database.file, synchronous: config.database.synchronous, commits: database.commitSync.durability }, 'database ready');
        return database;
      },
    },
    {
      provide: SqliteWalCheckpoints,
      inject: [SqliteDatabase],
      useFactory: (db: SqliteDatabase) => {
        const checkpoints = new SqliteWalCheckpoints(db);
        checkpoints.start();
        return checkpoints;
      },
    },
    // The read models every query and projection is written against; on SQLite, the same connection.
    { provide: ReadModelDatabase, inject: [SqliteDatabase], useFactory: (db: SqliteDatabase) => db.readModels },
    {
      provide: DatabaseHealth,
      inject: [SqliteDatabase, SqliteWalCheckpoints],
      useFactory: (db: SqliteDatabase, checkpoints: SqliteWalCheckpoints) => new SqliteDatabaseHealth(db, checkpoints),
    },
  ];
}

function postgresProviders() {
  return [
    {
      provide: Pool,
      inject: [SWITCHBOARD_CONFIG],
      useFactory: async (config: SwitchboardConfig) => {
        const { url, poolSize } = config.postgres as NonNullable<SwitchboardConfig['postgres']>;
        const logger = new Logger('Database');
        const pool = createPostgresPool({ url, size: poolSize }, (error) => logger.warn({ err: error }, 'PostgreSQL connection lost'));
        const where = `${withoutPassword(url)} (SWITCHBOARD_DATABASE_URL)`;
        const refuse = async (what: string, error: unknown) => {
          await pool.end().catch(() => undefined);
          return new Error(`${what}: ${innermostMessage(error)}`, { cause: error });
        };
        try {
          await pool.query('SELECT 1');
        } catch (error) {
          throw await refuse(`Cannot connect to PostgreSQL at ${where}`, error);
        }
        try {
          // Every instance migrates at start; an advisory lock makes them take turns. One transaction: all or nothing.
          await migratePostgres(pool);
        } catch (error) {
          throw await refuse(`Migrations failed on PostgreSQL at ${where}; its pending migrations were rolled back`, error);
        }
        const { host, port, database } = postgresTarget(url);
        logger.log({ host, port, database, poolSize }, 'database ready');
        return pool;
      },
    },
    { provide: ReadModelDatabase, inject: [Pool], useFactory: (pool: Pool) => new PostgresReadModels(pool) },
    {
      provide: DatabaseHealth,
      inject: [Pool, SWITCHBOARD_CONFIG],
      useFactory: (pool: Pool, config: SwitchboardConfig) => {
        const { url, poolSize } = config.postgres as NonNullable<SwitchboardConfig['postgres']>;
        return new PostgresDatabaseHealth(pool, url, poolSize);
      },
    },
  ];
}

/** drizzle wraps the server's error in one that quotes the whole statement: the server's own words are the line to print. */
function innermostMessage(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return inner instanceof Error ? inner.message : String(inner);
}

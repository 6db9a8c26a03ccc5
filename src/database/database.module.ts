import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import * as path from 'node:path';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { applyPendingMigrations } from './migrations';
import { ReadModelDatabase } from './read-model-database';
import { openSqliteConnection } from './sqlite-connection';
import { SqliteDatabase } from './sqlite-database';

/** Opens, checks and migrates the SQLite file before anything else starts; closes it last. */
@Global()
@Module({
  providers: [
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
        logger.log({ file: config.database.file, synchronous: config.database.synchronous }, 'database ready');
        return new SqliteDatabase(connection, config.database.file);
      },
    },
    { provide: ReadModelDatabase, useFactory: (db: SqliteDatabase) => db.readModels, inject: [SqliteDatabase] },
  ],
  exports: [SqliteDatabase, ReadModelDatabase],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(SqliteDatabase) private readonly database: SqliteDatabase) {}

  onApplicationShutdown(): void {
    this.database.close();
    new Logger('Database').log({ file: this.database.file }, 'database closed');
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type Database from 'better-sqlite3';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { RUN_COLUMNS_SQL, type RunRow, toRunRow } from '../../run-lineage';
import { GetRunsById } from './get-runs-by-id.query';

@QueryHandler(GetRunsById)
export class GetRunsByIdHandler implements IQueryHandler<GetRunsById, RunRow[]> {
  private readonly statement: Database.Statement;

  constructor(database: SqliteDatabase) {
    // One JSON array parameter: any number of ids, one prepared statement, primary-key lookups.
    this.statement = database.connection.prepare(`SELECT ${RUN_COLUMNS_SQL} FROM json_each(?) AS ids JOIN runs AS r ON r.run_id = ids.value`);
  }

  async execute({ runIds }: GetRunsById): Promise<RunRow[]> {
    if (runIds.length === 0) return [];
    return (this.statement.all(JSON.stringify(runIds)) as Array<Record<string, unknown>>).map(toRunRow);
  }
}

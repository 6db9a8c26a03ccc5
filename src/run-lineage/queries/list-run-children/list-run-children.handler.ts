import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { KeyedBatch } from '../../../database/keyed-batch';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { RUN_COLUMNS_SQL, type RunRow, toRunRow } from '../../run-lineage';
import { ListRunChildren } from './list-run-children.query';

export const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

@QueryHandler(ListRunChildren)
export class ListRunChildrenHandler implements IQueryHandler<ListRunChildren, RunRow[][]> {
  private readonly batch: KeyedBatch<string>;

  constructor(database: SqliteDatabase) {
    // Ids are uuid v7, so ordering by path orders siblings by start.
    this.batch = new KeyedBatch(
      database.connection,
      `SELECT q.key AS k, ${RUN_COLUMNS_SQL} FROM json_each(?) AS q, runs AS r
       WHERE r.rowid IN (SELECT x.rowid FROM runs AS x WHERE x.parent_run_id = q.value ->> '$.id' ORDER BY x.path LIMIT ?)`,
      (parentRunId) => ({ id: parentRunId }),
    );
  }

  async execute({ parentRunIds, limit }: ListRunChildren): Promise<RunRow[][]> {
    return this.batch.run(parentRunIds, limit).map((rows) => rows.map(toRunRow).sort(byPath));
  }
}

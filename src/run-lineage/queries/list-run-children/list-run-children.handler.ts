import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { UnionAllBatch } from '../../../database/union-all-batch';
import { RUN_COLUMNS_SQL, type RunRow, toRunRow } from '../../run-lineage';
import { ListRunChildren } from './list-run-children.query';

@QueryHandler(ListRunChildren)
export class ListRunChildrenHandler implements IQueryHandler<ListRunChildren, RunRow[][]> {
  private readonly batch: UnionAllBatch<{ parentRunId: string; limit: number }>;

  constructor(database: SqliteDatabase) {
    // Ids are uuid v7, so ordering by path orders siblings by start.
    this.batch = new UnionAllBatch(
      database.connection,
      `SELECT ? AS k, ${RUN_COLUMNS_SQL} FROM runs AS r WHERE r.parent_run_id = ? ORDER BY r.path LIMIT ?`,
      (item) => [item.parentRunId, item.limit],
    );
  }

  async execute({ parentRunIds, limit }: ListRunChildren): Promise<RunRow[][]> {
    return this.batch
      .run(parentRunIds.map((parentRunId) => ({ parentRunId, limit })))
      .map((rows) => rows.map(toRunRow).sort(byPath));
  }
}

export const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

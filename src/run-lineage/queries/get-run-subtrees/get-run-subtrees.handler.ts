import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { UnionAllBatch } from '../../../database/union-all-batch';
import { RUN_COLUMNS_SQL, type RunRow, subtreeRange, toRunRow } from '../../run-lineage';
import { byPath } from '../list-run-children/list-run-children.handler';
import { GetRunSubtrees, SubtreeRequest } from './get-run-subtrees.query';

/** Deeper than any run can be: "no depth limit". */
const UNLIMITED_DEPTH = 1_000_000;

@QueryHandler(GetRunSubtrees)
export class GetRunSubtreesHandler implements IQueryHandler<GetRunSubtrees, RunRow[][]> {
  private readonly batch: UnionAllBatch<SubtreeRequest>;

  constructor(database: SqliteDatabase) {
    this.batch = new UnionAllBatch(
      database.connection,
      `SELECT ? AS k, ${RUN_COLUMNS_SQL} FROM runs AS r INDEXED BY runs_path_idx
       WHERE r.path >= ? AND r.path < ? AND r.depth <= ? ORDER BY r.path LIMIT ?`,
      (request) => {
        const { from, to } = subtreeRange(request.path);
        return [from, to, request.depth + (request.maxDepth ?? UNLIMITED_DEPTH), request.limit];
      },
    );
  }

  async execute({ requests }: GetRunSubtrees): Promise<RunRow[][]> {
    return this.batch.run(requests).map((rows) => rows.map(toRunRow).sort(byPath));
  }
}

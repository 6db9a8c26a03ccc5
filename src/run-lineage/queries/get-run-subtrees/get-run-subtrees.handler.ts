import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { byLimit, KeyedBatch } from '../../../database/keyed-batch';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { RUN_COLUMNS_SQL, type RunRow, subtreeRange, toRunRow } from '../../run-lineage';
import { byPath } from '../list-run-children/list-run-children.handler';
import { GetRunSubtrees, SubtreeRequest } from './get-run-subtrees.query';

/** Deeper than any run can be: "no depth limit". */
const UNLIMITED_DEPTH = 1_000_000;

@QueryHandler(GetRunSubtrees)
export class GetRunSubtreesHandler implements IQueryHandler<GetRunSubtrees, RunRow[][]> {
  private readonly batch: KeyedBatch<SubtreeRequest>;

  constructor(database: SqliteDatabase) {
    // Each subtree is one range scan of runs_path_idx, stopped at its LIMIT.
    this.batch = new KeyedBatch(
      database.connection,
      `SELECT q.key AS k, ${RUN_COLUMNS_SQL} FROM json_each(?) AS q, runs AS r
       WHERE r.rowid IN (SELECT x.rowid FROM runs AS x INDEXED BY runs_path_idx
                         WHERE x.path >= q.value ->> '$.from' AND x.path < q.value ->> '$.to' AND x.depth <= q.value ->> '$.maxDepth'
                         ORDER BY x.path LIMIT ?)`,
      (request) => ({ ...subtreeRange(request.path), maxDepth: request.depth + (request.maxDepth ?? UNLIMITED_DEPTH) }),
    );
  }

  async execute({ requests }: GetRunSubtrees): Promise<RunRow[][]> {
    const results: RunRow[][] = requests.map(() => []);
    for (const { limit, indexes } of byLimit(requests, (r) => r.limit)) {
      const grouped = this.batch.run(
        indexes.map((i) => requests[i]),
        limit,
      );
      indexes.forEach((index, j) => (results[index] = grouped[j].map(toRunRow).sort(byPath)));
    }
    return results;
  }
}

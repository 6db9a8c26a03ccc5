import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, gte, lt, lte, sql } from 'drizzle-orm';
import { byLimit, KeyedReadBatch, ReadModelDatabase, type ReadTables } from '../../../database';
import { type RunRow, subtreeRange } from '../../run-lineage';
import { byPath } from '../list-run-children/list-run-children.handler';
import { GetRunSubtrees, SubtreeRequest } from './get-run-subtrees.query';

/** Deeper than any run can be: "no depth limit". */
const UNLIMITED_DEPTH = 1_000_000;

@QueryHandler(GetRunSubtrees)
export class GetRunSubtreesHandler implements IQueryHandler<GetRunSubtrees, RunRow[][]> {
  private readonly batch: KeyedReadBatch<SubtreeRequest, ReadTables['runs']>;

  constructor(db: ReadModelDatabase) {
    const { runs } = db.tables;
    // Each subtree is one range scan of runs_path_idx, stopped at its LIMIT.
    this.batch = new KeyedReadBatch(db, {
      table: runs,
      fieldsOf: (request) => ({ ...subtreeRange(request.path), maxDepth: request.depth + (request.maxDepth ?? UNLIMITED_DEPTH) }),
      where: (key) => and(gte(runs.path, key('from')), lt(runs.path, key('to')), lte(runs.depth, sql`CAST(${key('maxDepth')} AS INTEGER)`)),
      orderBy: runs.path,
      sqliteIndex: 'runs_path_idx',
    });
  }

  async execute({ requests }: GetRunSubtrees): Promise<RunRow[][]> {
    const results: RunRow[][] = requests.map(() => []);
    for (const { limit, indexes } of byLimit(requests, (r) => r.limit)) {
      const grouped = await this.batch.run(
        indexes.map((i) => requests[i]),
        limit,
      );
      indexes.forEach((index, j) => (results[index] = grouped[j].sort(byPath)));
    }
    return results;
  }
}

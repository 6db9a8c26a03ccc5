import type { QueryBus } from '@nestjs/cqrs';
import DataLoader from 'dataloader';
import { batchScheduleFn, groupedLoader } from '../../graphql-api';
import { GetRunSubtrees } from '../queries/get-run-subtrees/get-run-subtrees.query';
import { GetRunsById } from '../queries/get-runs-by-id/get-runs-by-id.query';
import { GetSubtreeSpend } from '../queries/get-subtree-spend/get-subtree-spend.query';
import { GetSubtreeUsage } from '../queries/get-subtree-usage/get-subtree-usage.query';
import { ListRunChildren } from '../queries/list-run-children/list-run-children.query';
import type { RunRow, RunUsage } from '../run-lineage';
import type { SubtreeSpend } from '../runs-read-model';

export interface SubtreeKey {
  path: string;
  depth: number;
  maxDepth?: number;
  limit: number;
}

/** The run tree's loaders of one GraphQL operation (`loaders.of(RunLoaders)`). */
export class RunLoaders {
  readonly runById: DataLoader<string, RunRow | null>;
  readonly children: DataLoader<{ runId: string; first: number }, RunRow[], string>;
  readonly subtree: DataLoader<SubtreeKey, RunRow[], string>;
  readonly subtreeUsage: DataLoader<string, RunUsage>;
  /** What a subtree spent against its budget (running launches counted up to now). */
  readonly subtreeSpend: DataLoader<string, SubtreeSpend>;

  constructor(queryBus: QueryBus) {
    this.runById = new DataLoader(
      async (ids) => {
        const rows = await queryBus.execute(new GetRunsById(ids));
        const byId = new Map(rows.map((row) => [row.runId, row]));
        return ids.map((id) => byId.get(id) ?? null);
      },
      { batchScheduleFn },
    );
    this.children = groupedLoader(
      (key) => `${key.first}:${key.runId}`,
      (key) => String(key.first),
      (keys) =>
        queryBus.execute(
          new ListRunChildren(
            keys.map((k) => k.runId),
            keys[0].first,
          ),
        ),
    );
    this.subtree = groupedLoader(
      (key) => JSON.stringify([key.path, key.maxDepth ?? null, key.limit]),
      () => 'all',
      (keys) => queryBus.execute(new GetRunSubtrees(keys)),
    );
    this.subtreeUsage = new DataLoader((paths) => queryBus.execute(new GetSubtreeUsage(paths)), { batchScheduleFn });
    this.subtreeSpend = new DataLoader((paths) => queryBus.execute(new GetSubtreeSpend(paths)), { batchScheduleFn });
  }
}

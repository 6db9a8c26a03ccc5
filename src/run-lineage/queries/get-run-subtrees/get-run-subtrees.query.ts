import { Query } from '@nestjs/cqrs';
import type { RunRow } from '../../run-lineage';

export interface SubtreeRequest {
  /** The subtree root's path and depth (from its row). */
  path: string;
  depth: number;
  /** Levels below the root to include; undefined: all. */
  maxDepth?: number;
  /** At most this many runs, in path order (the root first, then depth-first). */
  limit: number;
}

/** Each requested subtree, root included, in request order: one index range scan per subtree, one statement per batch. */
export class GetRunSubtrees extends Query<RunRow[][]> {
  constructor(readonly requests: readonly SubtreeRequest[]) {
    super();
  }
}

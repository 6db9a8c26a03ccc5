import { Query } from '@nestjs/cqrs';
import type { RunRow } from '../../run-lineage';

export interface RunFilter {
  status?: string;
  agentId?: string;
  rootRunId?: string;
  /** ISO timestamps on started_at: `startedFrom` inclusive, `startedTo` exclusive. */
  startedFrom?: string;
  startedTo?: string;
}

export interface RunPage {
  runs: RunRow[];
  hasNextPage: boolean;
  /** Cursor of the last run of the page, for `after`; null on an empty page. */
  endCursor: string | null;
}

/**
 * Runs, newest first, keyset-paged on (started_at, run_id): a run started between two pages sorts
 * before the cursor, so later pages neither repeat nor skip what the first page had not yet shown.
 */
export class ListRuns extends Query<RunPage> {
  constructor(
    readonly filter: RunFilter,
    readonly first: number,
    readonly after?: string,
  ) {
    super();
  }
}

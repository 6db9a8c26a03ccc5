import { Query } from '@nestjs/cqrs';
import type { RunRow } from '../../run-lineage';

export interface RunFilter {
  status?: string;
  /** Any of these statuses (with `status`, both must hold). */
  statuses?: readonly string[];
  agentId?: string;
  rootRunId?: string;
  /** ISO timestamps on started_at: `startedFrom` inclusive, `startedTo` exclusive. */
  startedFrom?: string;
  startedTo?: string;
  /** issue 43: the runs (tasks) of one A2A context. */
  a2aContextId?: string;
  /** issue 43: only runs an A2A client started (of any context). */
  startedOverA2a?: boolean;
  /** issue 43: runs whose row changed (status, usage, output) at or after this ISO timestamp. */
  updatedFrom?: string;
}

export interface RunPage {
  runs: RunRow[];
  hasNextPage: boolean;
  /** Cursor of the last run of the page, for `after`; null on an empty page. */
  endCursor: string | null;
  /** How many runs match the filter over all pages; only when asked for (`withTotal`). */
  totalCount?: number;
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
    /** Count every match too (one more query). */
    readonly withTotal = false,
  ) {
    super();
  }
}

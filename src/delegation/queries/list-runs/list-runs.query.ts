import { Query } from '@nestjs/cqrs';
import type { RunView } from '../../run-view';

export interface RunFilter {
  status?: string;
  agentId?: string;
  rootRunId?: string;
  limit: number;
}

/** Newest first. */
export class ListRuns extends Query<RunView[]> {
  constructor(readonly filter: RunFilter) {
    super();
  }
}

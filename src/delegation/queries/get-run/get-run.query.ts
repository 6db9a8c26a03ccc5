import { Query } from '@nestjs/cqrs';
import type { RunUsage, RunView } from '../../run-view';

/** A single run's view: its own usage with its cost, and the same summed over its subtree (`subtree_usage`). */
/** issue 26: a run that replays or forks this one. */
export interface ReplayLink {
  run_id: string;
  mode: string;
  status: string;
  started_at: string;
}

export type SingleRunView = RunView & { subtree_usage: RunUsage; replays: ReplayLink[] };

export class GetRun extends Query<SingleRunView> {
  constructor(readonly runId: string) {
    super();
  }
}

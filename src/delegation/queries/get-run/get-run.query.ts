import { Query } from '@nestjs/cqrs';
import type { RunUsage, RunView } from '../../run-view';

/** A single run's view: its own usage with its cost, and the same summed over its subtree (`subtree_usage`). */
export type SingleRunView = RunView & { subtree_usage: RunUsage };

export class GetRun extends Query<SingleRunView> {
  constructor(readonly runId: string) {
    super();
  }
}

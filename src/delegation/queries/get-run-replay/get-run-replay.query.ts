import { Query } from '@nestjs/cqrs';
import type { RunRow } from '../../../run-lineage';
import type { RunReplayView } from '../../run-view';

/** issue 26: how a run plays its original back (null for a run outside a replay tree), and the runs that replay or fork it. */
export interface RunReplayLinks {
  replay: RunReplayView | null;
  replays: RunRow[];
}

export class GetRunReplay extends Query<RunReplayLinks> {
  constructor(readonly runId: string) {
    super();
  }
}

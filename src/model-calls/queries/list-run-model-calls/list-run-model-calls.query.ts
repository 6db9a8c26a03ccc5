import { Query } from '@nestjs/cqrs';
import type { ModelCallPage } from '../../model-call-view';

/** A page of a run's calls, and the run's lineage path (whose range its subtree's spend sums). */
export interface RunModelCallPage extends ModelCallPage {
  runPath: string;
}

/** A run's own model calls, or with `subtree` those of every run under it too, oldest first, after a cursor. */
export class ListRunModelCalls extends Query<RunModelCallPage> {
  constructor(
    readonly runId: string,
    readonly subtree: boolean,
    readonly limit: number,
    /** `nextCursor` of the previous page. */
    readonly after?: string,
  ) {
    super();
  }
}

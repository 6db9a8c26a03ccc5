import { Query } from '@nestjs/cqrs';
import type { ModelCallPage } from '../../model-call-view';
import type { RunCallsKey } from '../../model-calls-read-model';

/**
 * Pages of several known runs' calls in one read (GraphQL's loaders), in key order: each key names the
 * run, the subtree path when its whole subtree is asked, and the started position to start after.
 */
export class ListModelCallsOfRuns extends Query<ModelCallPage[]> {
  constructor(
    readonly keys: readonly RunCallsKey[],
    readonly limit: number,
  ) {
    super();
  }
}

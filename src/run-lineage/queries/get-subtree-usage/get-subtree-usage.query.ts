import { Query } from '@nestjs/cqrs';
import type { RunUsage } from '../../run-lineage';

/** Usage summed over each run's subtree (the run included), in the order of `paths`. */
export class GetSubtreeUsage extends Query<RunUsage[]> {
  constructor(readonly paths: readonly string[]) {
    super();
  }
}

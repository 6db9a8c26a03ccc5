import { Query } from '@nestjs/cqrs';
import type { SubtreeSpend } from '../../runs-read-model';

/** What each run's subtree spent so far (running runs count their current launch's time), in the order of `paths`. */
export class GetSubtreeSpend extends Query<SubtreeSpend[]> {
  constructor(readonly paths: readonly string[]) {
    super();
  }
}

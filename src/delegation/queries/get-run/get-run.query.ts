import { Query } from '@nestjs/cqrs';
import type { RunView } from '../../run-view';

export class GetRun extends Query<RunView> {
  constructor(readonly runId: string) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { FiringView } from '../../schedule-view';

/** "Run now": a manual firing (uuid v7 id) that starts the schedule's run at once, whether it is enabled or a firing still runs. */
export class RunScheduleNow extends Command<FiringView> {
  constructor(readonly id: string) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { ScheduleChanges } from '../../schedule-requests';
import type { ScheduleView } from '../../schedule-view';

/**
 * Changes some fields (the definition is then replaced whole: `schedule.updated`) and/or turns the
 * schedule on or off; `expectedVersion` (If-Match) guards against a lost update (409).
 */
export class UpdateSchedule extends Command<ScheduleView> {
  constructor(
    readonly id: string,
    readonly changes: ScheduleChanges,
    readonly expectedVersion?: number,
  ) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { ScheduleInput } from '../../schedule-requests';
import type { ScheduleView } from '../../schedule-view';

/** A new schedule (uuid v7 id), checked whole first: 422 `invalid_schedule` with every problem, `unknown_agent`. */
export class CreateSchedule extends Command<ScheduleView> {
  constructor(readonly input: ScheduleInput) {
    super();
  }
}

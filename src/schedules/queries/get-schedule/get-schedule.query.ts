import { Query } from '@nestjs/cqrs';
import type { ScheduleView } from '../../schedule-view';

/** One schedule with its next PREVIEW_FIRINGS due times and last firing; 404 `schedule_not_found`. */
export class GetSchedule extends Query<ScheduleView> {
  constructor(readonly id: string) {
    super();
  }
}

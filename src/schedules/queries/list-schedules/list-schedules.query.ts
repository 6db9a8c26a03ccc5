import { Query } from '@nestjs/cqrs';
import type { ScheduleView } from '../../schedule-view';

export interface SchedulePage {
  /** In created order; each with its next firing and last firing (nextFirings: []). */
  schedules: ScheduleView[];
  /** Pass as `after` for the next page; null on the last one. */
  nextCursor: string | null;
}

export class ListSchedules extends Query<SchedulePage> {
  constructor(
    readonly limit: number,
    /** `nextCursor` of the previous page. */
    readonly after?: string,
  ) {
    super();
  }
}

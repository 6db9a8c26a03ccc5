import { Query } from '@nestjs/cqrs';
import type { FiringView } from '../../schedule-view';

export interface FiringPage {
  /** Newest first. */
  firings: FiringView[];
  /** Pass as `after` for the next page; null on the last one. */
  nextCursor: string | null;
}

/** A schedule's firing history with each run's status; 404 when the schedule never existed (a deleted one's history is still listed). */
export class ListScheduleFirings extends Query<FiringPage> {
  constructor(
    readonly scheduleId: string,
    readonly limit: number,
    /** `nextCursor` of the previous page. */
    readonly after?: string,
  ) {
    super();
  }
}

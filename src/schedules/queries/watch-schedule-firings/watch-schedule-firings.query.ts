import { Query } from '@nestjs/cqrs';
import type { Observable } from 'rxjs';
import type { FiringView } from '../../schedule-view';

/**
 * Live firings (claimed, started, skipped, failed) of one schedule, or of all: each as its row is after
 * the event (the projection is inline, so the row is there when the commit is announced).
 */
export class WatchScheduleFirings extends Query<Observable<FiringView>> {
  constructor(readonly scheduleId?: string) {
    super();
  }
}

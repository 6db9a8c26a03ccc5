import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { catchError, concatMap, EMPTY, filter, from, type Observable } from 'rxjs';
import { EventStore } from '../../../event-store';
import { isFiringEvent } from '../../schedule.events';
import type { FiringView } from '../../schedule-view';
import { ScheduleViews } from '../../schedule-views';
import { WatchScheduleFirings } from './watch-schedule-firings.query';

@QueryHandler(WatchScheduleFirings)
export class WatchScheduleFiringsHandler implements IQueryHandler<WatchScheduleFirings, Observable<FiringView>> {
  constructor(
    private readonly store: EventStore,
    private readonly views: ScheduleViews,
  ) {}

  async execute({ scheduleId }: WatchScheduleFirings): Promise<Observable<FiringView>> {
    return this.store.committed$.pipe(
      filter(isFiringEvent),
      filter((event) => scheduleId === undefined || event.data.scheduleId === scheduleId),
      // In commit order; the row is read after the commit (inline projection), so it is as the event left it or newer.
      // A read that fails (database briefly away) drops that one update, not the subscription.
      concatMap((event) => from(this.views.firing(event.data.firingId)).pipe(catchError(() => EMPTY))),
      filter((view): view is FiringView => view !== undefined),
    );
  }
}

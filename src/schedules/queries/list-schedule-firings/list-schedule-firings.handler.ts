import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ScheduleViews } from '../../schedule-views';
import { type FiringPage, ListScheduleFirings } from './list-schedule-firings.query';

@QueryHandler(ListScheduleFirings)
export class ListScheduleFiringsHandler implements IQueryHandler<ListScheduleFirings, FiringPage> {
  constructor(private readonly views: ScheduleViews) {}

  execute({ scheduleId, limit, after }: ListScheduleFirings): Promise<FiringPage> {
    return this.views.firingPage(scheduleId, limit, after);
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ScheduleViews } from '../../schedule-views';
import { ListSchedules, type SchedulePage } from './list-schedules.query';

@QueryHandler(ListSchedules)
export class ListSchedulesHandler implements IQueryHandler<ListSchedules, SchedulePage> {
  constructor(private readonly views: ScheduleViews) {}

  execute({ limit, after }: ListSchedules): Promise<SchedulePage> {
    return this.views.page(limit, after);
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ScheduleView } from '../../schedule-view';
import { ScheduleViews } from '../../schedule-views';
import { GetSchedule } from './get-schedule.query';

@QueryHandler(GetSchedule)
export class GetScheduleHandler implements IQueryHandler<GetSchedule, ScheduleView> {
  constructor(private readonly views: ScheduleViews) {}

  execute({ id }: GetSchedule): Promise<ScheduleView> {
    return this.views.schedule(id);
  }
}

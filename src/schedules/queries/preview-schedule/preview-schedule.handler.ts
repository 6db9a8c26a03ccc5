import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { timingProblemsAt } from '../../schedule-definition';
import { dueTimesAfter, PREVIEW_FIRINGS } from '../../schedule-timing';
import { PreviewSchedule, type SchedulePreview } from './preview-schedule.query';

@QueryHandler(PreviewSchedule)
export class PreviewScheduleHandler implements IQueryHandler<PreviewSchedule, SchedulePreview> {
  async execute({ timing }: PreviewSchedule): Promise<SchedulePreview> {
    const now = new Date();
    const problems = timingProblemsAt(timing, now);
    if (problems.length > 0) return { nextFirings: [], problems };
    return { nextFirings: dueTimesAfter(timing, now, PREVIEW_FIRINGS).map((due) => due.toISOString()), problems };
  }
}

import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../../config';
import { allTimingChecks, timingProblemsAt } from '../../schedule-definition';
import { dueTimesAfter, PREVIEW_FIRINGS } from '../../schedule-timing';
import { PreviewSchedule, type SchedulePreview } from './preview-schedule.query';

/** The same problems a create would refuse with (422 invalid_schedule), answered rather than refused. */
@QueryHandler(PreviewSchedule)
export class PreviewScheduleHandler implements IQueryHandler<PreviewSchedule, SchedulePreview> {
  constructor(@Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig) {}

  async execute({ timing }: PreviewSchedule): Promise<SchedulePreview> {
    const now = new Date();
    const problems = timingProblemsAt(timing, now, allTimingChecks(this.config.scheduler.minIntervalSeconds));
    if (problems.length > 0) return { nextFirings: [], problems };
    return { nextFirings: dueTimesAfter(timing, now, PREVIEW_FIRINGS).map((due) => due.toISOString()), problems };
  }
}

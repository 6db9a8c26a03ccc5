import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { FiringStarter } from '../../firing-starter';
import { ScheduleNotFoundError } from '../../schedule.errors';
import type { FiringView } from '../../schedule-view';
import { ScheduleViews } from '../../schedule-views';
import { SchedulerClock } from '../../scheduler-clock';
import { SchedulesReadModel } from '../../schedules-read-model';
import { RunScheduleNow } from './run-schedule-now.command';

/**
 * "Run now": a manual firing claimed and its run started at once, whether the schedule is enabled or
 * its previous run still runs. Answers the firing as recorded: started, or retrying / failed with the
 * refusal's reason (a manual firing follows the same retry rule).
 */
@CommandHandler(RunScheduleNow)
export class RunScheduleNowHandler implements ICommandHandler<RunScheduleNow, FiringView> {
  constructor(
    private readonly schedules: SchedulesReadModel,
    private readonly starter: FiringStarter,
    private readonly clock: SchedulerClock,
    private readonly views: ScheduleViews,
  ) {}

  async execute({ id }: RunScheduleNow): Promise<FiringView> {
    const schedule = await this.schedules.get(id);
    if (!schedule) throw new ScheduleNotFoundError(id);
    const firingId = await this.starter.fireNow(schedule, this.clock.now());
    // The projection is inline: the row is there once the append returned.
    const firing = await this.views.firing(firingId);
    if (!firing) throw new ScheduleNotFoundError(id);
    return firing;
  }
}

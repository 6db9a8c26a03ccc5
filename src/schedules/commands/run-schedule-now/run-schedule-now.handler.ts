import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { RunStatus } from '../../../delegation/run.events';
import { RunsReadModel } from '../../../run-lineage/runs-read-model';
import { FiringStarter } from '../../firing-starter';
import { ScheduleNotFoundError } from '../../schedule.errors';
import { type FiringView, firingView } from '../../schedule-view';
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
    private readonly runs: RunsReadModel,
  ) {}

  async execute({ id }: RunScheduleNow): Promise<FiringView> {
    const schedule = await this.schedules.get(id);
    if (!schedule) throw new ScheduleNotFoundError(id);
    const firingId = await this.starter.fireNow(schedule, this.clock.now());
    const firing = await this.schedules.firing(firingId);
    // The projection is inline: the row is there once the append returned.
    if (!firing) throw new ScheduleNotFoundError(id);
    const run = firing.runId && firing.status === 'started' ? await this.runs.find(firing.runId) : undefined;
    return firingView(firing, (run?.status as RunStatus | undefined) ?? null);
  }
}

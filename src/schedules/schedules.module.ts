import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { RunLineageModule } from '../run-lineage/run-lineage.module';
import { SchedulesProjection } from './projections/schedules.projection';
import { RunScheduleNowHandler } from './commands/run-schedule-now/run-schedule-now.handler';
import { FiringStarter } from './firing-starter';
import { Scheduler } from './scheduler';
import { SchedulerClock } from './scheduler-clock';
import { SchedulesReadModel } from './schedules-read-model';

/**
 * issue 30: scheduled runs. A schedule is a `schedule-<id>` stream (its definition, on or off); each
 * firing a `schedule_firing-<id>` stream whose first event is appended at version 0, so of several
 * instances firing one due time exactly one starts its run. The inline projection keeps `schedules`
 * (with the next due time) and `schedule_firings`; the GraphQL API reads them through this module.
 */
@Module({
  imports: [AgentsModule, RunLineageModule],
  providers: [
    SchedulesReadModel,
    SchedulesProjection,
    // The engine: the clock due times are judged by, the firings' writes, the tick loop and "run now".
    SchedulerClock,
    FiringStarter,
    Scheduler,
    RunScheduleNowHandler,
  ],
  exports: [SchedulesReadModel],
})
export class SchedulesModule {}

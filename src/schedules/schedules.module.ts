import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents';
import { RunLineageModule } from '../run-lineage';
import { CreateScheduleHandler } from './commands/create-schedule/create-schedule.handler';
import { DeleteScheduleHandler } from './commands/delete-schedule/delete-schedule.handler';
import { UpdateScheduleHandler } from './commands/update-schedule/update-schedule.handler';
import { SchedulesProjection } from './projections/schedules.projection';
import { RunScheduleNowHandler } from './commands/run-schedule-now/run-schedule-now.handler';
import { FiringStarter } from './firing-starter';
import { Scheduler } from './scheduler';
import { SchedulerClock } from './scheduler-clock';
import { GetScheduleHandler } from './queries/get-schedule/get-schedule.handler';
import { ListScheduleFiringsHandler } from './queries/list-schedule-firings/list-schedule-firings.handler';
import { ListSchedulesHandler } from './queries/list-schedules/list-schedules.handler';
import { PreviewScheduleHandler } from './queries/preview-schedule/preview-schedule.handler';
import { WatchScheduleFiringsHandler } from './queries/watch-schedule-firings/watch-schedule-firings.handler';
import { ScheduleReferences } from './schedule-references';
import { ScheduleViews } from './schedule-views';
import { SchedulesController } from './schedules.controller';
import { SchedulesReadModel } from './schedules-read-model';
import { SchedulesResolver, ScheduleFiringResolver, RunScheduledByResolver, ScheduledByResolver } from './graphql/schedules.resolver';
import { SchedulesAccess } from './schedules.access';

/**
 * issue 30: scheduled runs. A schedule is a `schedule-<id>` stream (its definition, on or off); each
 * firing a `schedule_firing-<id>` stream whose first event is appended at version 0, so of several
 * instances firing one due time exactly one starts its run. The inline projection keeps `schedules`
 * (with the next due time) and `schedule_firings`; the GraphQL API reads them through this module.
 */
@Module({
  imports: [AgentsModule, RunLineageModule],
  controllers: [SchedulesController],
  providers: [
    SchedulesAccess,
    SchedulesResolver,
    ScheduleFiringResolver,
    RunScheduledByResolver,
    ScheduledByResolver,
    SchedulesReadModel,
    SchedulesProjection,
    ScheduleViews,
    ScheduleReferences,
    CreateScheduleHandler,
    UpdateScheduleHandler,
    DeleteScheduleHandler,
    ListSchedulesHandler,
    GetScheduleHandler,
    ListScheduleFiringsHandler,
    PreviewScheduleHandler,
    WatchScheduleFiringsHandler,
    // The engine: the clock due times are judged by, the firings' writes, the tick loop and "run now".
    SchedulerClock,
    FiringStarter,
    Scheduler,
    RunScheduleNowHandler,
  ],
  exports: [SchedulesReadModel, ScheduleViews],
})
export class SchedulesModule {}

import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { cursorPageQuery, expectedVersionOf, ZodValidationPipe, DocumentedAnswers } from '../common';
import { CreateSchedule } from './commands/create-schedule/create-schedule.command';
import { DeleteSchedule } from './commands/delete-schedule/delete-schedule.command';
import { RunScheduleNow } from './commands/run-schedule-now/run-schedule-now.command';
import { UpdateSchedule } from './commands/update-schedule/update-schedule.command';
import { GetSchedule } from './queries/get-schedule/get-schedule.query';
import { ListScheduleFirings } from './queries/list-schedule-firings/list-schedule-firings.query';
import { ListSchedules } from './queries/list-schedules/list-schedules.query';
import { PreviewSchedule } from './queries/preview-schedule/preview-schedule.query';
import {
  createScheduleSchema,
  type PreviewInput,
  previewScheduleSchema,
  type ScheduleChanges,
  type ScheduleInput,
  updateScheduleSchema,
} from './schedule-requests';
import { SCHEDULES_ANSWERS } from './schedules.api-answers';

export const SCHEDULES_PAGE = { min: 1, max: 500, fallback: 50 } as const;

const pageSchema = cursorPageQuery(SCHEDULES_PAGE, 400);
type Page = z.infer<typeof pageSchema>;

/** issue 30: schedules over REST; every route sends a command or query (GraphQL sends the same). */
@ApiTags('schedules')
@DocumentedAnswers(SCHEDULES_ANSWERS)
@Controller('api/schedules')
export class SchedulesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a schedule: an agent, a prompt and a cron or one time (422 invalid_schedule names every problem, unknown_agent)' })
  create(@Body(new ZodValidationPipe(createScheduleSchema)) body: ScheduleInput) {
    return this.commandBus.execute(new CreateSchedule(body));
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'The next due times of a cron or one time, and its problems, before it is saved' })
  preview(@Body(new ZodValidationPipe(previewScheduleSchema)) body: PreviewInput) {
    return this.queryBus.execute(
      new PreviewSchedule({ cron: body.cron ?? null, at: body.at ?? null, timeZone: body.timeZone, endsAt: body.endsAt ?? null }),
    );
  }

  @Get()
  @ApiOperation({ summary: 'Schedules in created order, each with its next firing and last firing, a page at a time (after=nextCursor)' })
  list(@Query(new ZodValidationPipe(pageSchema)) query: Page) {
    return this.queryBus.execute(new ListSchedules(query.limit, query.after));
  }

  @Get(':id')
  @ApiOperation({ summary: 'A schedule with its next five due times and last firing' })
  get(@Param('id') id: string) {
    return this.queryBus.execute(new GetSchedule(id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change some fields and/or enable or disable (If-Match: <version> to guard against lost updates; 409 when stale)' })
  update(@Param('id') id: string, @Body(new ZodValidationPipe(updateScheduleSchema)) body: ScheduleChanges, @Headers('if-match') ifMatch?: string) {
    return this.commandBus.execute(new UpdateSchedule(id, body, expectedVersionOf(ifMatch, 'a schedule')));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a schedule (If-Match: <version>); its firings stay listed' })
  async delete(@Param('id') id: string, @Headers('if-match') ifMatch?: string): Promise<void> {
    await this.commandBus.execute(new DeleteSchedule(id, expectedVersionOf(ifMatch, 'a schedule')));
  }

  @Post(':id/run')
  @HttpCode(202)
  @ApiOperation({ summary: 'Run now: a manual firing that starts the run at once, enabled or not (the firing; follow its run id)' })
  run(@Param('id') id: string) {
    return this.commandBus.execute(new RunScheduleNow(id));
  }

  @Get(':id/firings')
  @ApiOperation({ summary: "A schedule's firings, newest first, each with its run's status or why it was skipped or failed (after=nextCursor)" })
  firings(@Param('id') id: string, @Query(new ZodValidationPipe(pageSchema)) query: Page) {
    return this.queryBus.execute(new ListScheduleFirings(id, query.limit, query.after));
  }
}

import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { RunLoaders, Run, type RunRow } from '../../run-lineage';
import { NotFoundError } from '../../common';
import { CreateSchedule } from '../commands/create-schedule/create-schedule.command';
import { DeleteSchedule } from '../commands/delete-schedule/delete-schedule.command';
import { RunScheduleNow } from '../commands/run-schedule-now/run-schedule-now.command';
import { UpdateSchedule } from '../commands/update-schedule/update-schedule.command';
import { GetSchedule } from '../queries/get-schedule/get-schedule.query';
import { ListScheduleFirings } from '../queries/list-schedule-firings/list-schedule-firings.query';
import { ListSchedules } from '../queries/list-schedules/list-schedules.query';
import { PreviewSchedule } from '../queries/preview-schedule/preview-schedule.query';
import { WatchScheduleFirings } from '../queries/watch-schedule-firings/watch-schedule-firings.query';
import { createScheduleSchema, previewScheduleSchema, updateScheduleSchema } from '../schedule-requests';
import type { FiringView, ScheduleView } from '../schedule-view';
import { ScheduleNotFoundError } from '../schedule.errors';
import { AFTER_CURSOR_ARG, apiBudgetFromInput, type GraphqlContext, ListSize, validated, observableToAsyncIterator } from '../../graphql-api';
import {
  DeletedSchedule,
  Schedule,
  ScheduleChangesInput,
  ScheduledBy,
  ScheduleConnection,
  ScheduleFiring,
  ScheduleFiringConnection,
  ScheduleInput,
  SchedulePreview,
} from './schedule.model';
import type { PermissionPolicyInput, SessionPermissionPolicy } from '../../sessions';
import { runOf } from '../../delegation';

const SCHEDULES_FIRST = new ListSize('first', 1, 500, 50);
const FIRINGS_FIRST = new ListSize('first', 1, 500, 50);

/** A schedule view as the GraphQL type: its permission policy with every list present. */
function scheduleOf(view: ScheduleView): Schedule {
  const policy = view.permissionPolicy;
  const permissionPolicy: SessionPermissionPolicy | null = policy
    ? { allowKinds: policy.allowKinds, approveOwnTools: policy.approveOwnTools, askKinds: policy.askKinds ?? [], askTools: policy.askTools ?? [] }
    : null;
  const workspace = view.workspace
    ? { repository: view.workspace.repository, ref: view.workspace.ref ?? null, merge: view.workspace.merge ?? null }
    : null;
  return { ...view, permissionPolicy, workspace };
}

const policyBody = (policy: PermissionPolicyInput | null | undefined) =>
  policy === undefined || policy === null
    ? policy
    : {
        allowKinds: policy.allowKinds ?? undefined,
        approveOwnTools: policy.approveOwnTools ?? undefined,
        askKinds: policy.askKinds ?? undefined,
        askTools: policy.askTools ?? undefined,
      };

/**
 * A GraphQL schedule input as the REST body, for the same zod schema. A field the client left out stays
 * out (undefined); null is kept where it means "none" (model, policy, budget, cron, at, endsAt), and a
 * null for a field that cannot be cleared is left out too (GraphQL lets a client send null for any
 * optional input field).
 */
function scheduleBody(input: ScheduleInput | ScheduleChangesInput) {
  const { permissionPolicy, budget, workspace, name, agentId, prompt, timeZone, enabled, overlap, catchUp, ...nullable } = input;
  return {
    ...nullable,
    name: name ?? undefined,
    agentId: agentId ?? undefined,
    prompt: prompt ?? undefined,
    timeZone: timeZone ?? undefined,
    enabled: enabled ?? undefined,
    overlap: overlap ?? undefined,
    catchUp: catchUp ?? undefined,
    permissionPolicy: policyBody(permissionPolicy),
    budget: budget === undefined || budget === null ? budget : apiBudgetFromInput(budget),
    workspace:
      workspace === undefined || workspace === null
        ? workspace
        : { repository: workspace.repository, ...(workspace.ref ? { ref: workspace.ref } : {}), ...(workspace.merge ? { merge: workspace.merge } : {}) },
  };
}

/** issue 30: schedules (REST /api/schedules): resolvers only send the schedules module's commands and queries. */
@Resolver(() => Schedule)
export class SchedulesResolver {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Query(() => ScheduleConnection, {
    description: 'Schedules in created order, each with its next firing and last firing',
    complexity: SCHEDULES_FIRST.complexity,
  })
  async schedules(
    @Args('first', SCHEDULES_FIRST.arg) first = SCHEDULES_FIRST.fallback,
    @Args('after', AFTER_CURSOR_ARG) after?: string,
  ): Promise<ScheduleConnection> {
    const page = await this.queryBus.execute(new ListSchedules(SCHEDULES_FIRST.check(first), after ?? undefined));
    return {
      nodes: page.schedules.map(scheduleOf),
      pageInfo: { hasNextPage: page.nextCursor !== null, endCursor: page.nextCursor ?? after ?? null },
    };
  }

  @Query(() => Schedule, { nullable: true, description: 'One schedule with its next five due times; null when there is none (or it was deleted)' })
  async schedule(@Args('id', { type: () => ID }) id: string): Promise<Schedule | null> {
    try {
      return scheduleOf(await this.queryBus.execute(new GetSchedule(id)));
    } catch (error) {
      if (error instanceof ScheduleNotFoundError || error instanceof NotFoundError) return null;
      throw error;
    }
  }

  @Query(() => SchedulePreview, {
    description:
      "When a timing would fire (the next five due times from now) and what is wrong with it: an editor's preview, never an error for a bad timing",
  })
  schedulePreview(
    @Args('cron', { type: () => String, nullable: true }) cron: string | null,
    @Args('at', { type: () => String, nullable: true }) at: string | null,
    @Args('timeZone', { type: () => String, defaultValue: 'UTC' }) timeZone: string,
    @Args('endsAt', { type: () => String, nullable: true }) endsAt: string | null,
  ) {
    const body = validated(previewScheduleSchema, { cron: cron ?? undefined, at: at ?? undefined, timeZone, endsAt: endsAt ?? undefined });
    return this.queryBus.execute(
      new PreviewSchedule({ cron: body.cron ?? null, at: body.at ?? null, timeZone: body.timeZone, endsAt: body.endsAt ?? null }),
    );
  }

  @ResolveField(() => ScheduleFiringConnection, { description: 'Its firings, newest first', complexity: FIRINGS_FIRST.complexity })
  async firings(
    @Parent() schedule: Schedule,
    @Args('first', FIRINGS_FIRST.arg) first = FIRINGS_FIRST.fallback,
    @Args('after', AFTER_CURSOR_ARG) after?: string,
  ): Promise<ScheduleFiringConnection> {
    const page = await this.queryBus.execute(new ListScheduleFirings(schedule.id, FIRINGS_FIRST.check(first), after ?? undefined));
    return {
      nodes: page.firings,
      pageInfo: { hasNextPage: page.nextCursor !== null, endCursor: page.nextCursor ?? after ?? null },
    };
  }

  @Mutation(() => Schedule, { description: 'Create a schedule (422 invalid_schedule with every problem; unknown_agent)' })
  async createSchedule(@Args('input', { type: () => ScheduleInput }) input: ScheduleInput) {
    return scheduleOf(await this.commandBus.execute(new CreateSchedule(validated(createScheduleSchema, scheduleBody(input)))));
  }

  @Mutation(() => Schedule, { description: 'Change the fields given (null clears an optional one); expectedVersion guards against lost updates (409)' })
  async updateSchedule(
    @Args('id', { type: () => ID }) id: string,
    @Args('input', { type: () => ScheduleChangesInput }) input: ScheduleChangesInput,
    @Args('expectedVersion', { type: () => Int, nullable: true }) expectedVersion?: number,
  ) {
    const changes = validated(updateScheduleSchema, scheduleBody(input));
    return scheduleOf(await this.commandBus.execute(new UpdateSchedule(id, changes, expectedVersion ?? undefined)));
  }

  @Mutation(() => Schedule, { description: 'Turn a schedule on or off (nothing is recorded when it already is)' })
  async setScheduleEnabled(
    @Args('id', { type: () => ID }) id: string,
    @Args('enabled', { type: () => Boolean }) enabled: boolean,
    @Args('expectedVersion', { type: () => Int, nullable: true }) expectedVersion?: number,
  ) {
    return scheduleOf(await this.commandBus.execute(new UpdateSchedule(id, { enabled }, expectedVersion ?? undefined)));
  }

  @Mutation(() => DeletedSchedule, { description: 'Delete a schedule; its firings stay in the history' })
  async deleteSchedule(
    @Args('id', { type: () => ID }) id: string,
    @Args('expectedVersion', { type: () => Int, nullable: true }) expectedVersion?: number,
  ): Promise<DeletedSchedule> {
    await this.commandBus.execute(new DeleteSchedule(id, expectedVersion ?? undefined));
    return { id, deleted: true };
  }

  @Mutation(() => ScheduleFiring, { description: '"Run now": a manual firing that starts the run at once, enabled or not, whatever still runs' })
  runScheduleNow(@Args('id', { type: () => ID }) id: string): Promise<FiringView> {
    return this.commandBus.execute(new RunScheduleNow(id));
  }

  @Subscription(() => ScheduleFiring, {
    description: 'Firings from now on (claimed, started, skipped, failed), each as it is after the event; of one schedule, or of all',
    resolve: (firing: FiringView) => firing,
  })
  async scheduleFirings(@Args('scheduleId', { type: () => ID, nullable: true }) scheduleId?: string) {
    const firings = await this.queryBus.execute(new WatchScheduleFirings(scheduleId ?? undefined));
    return observableToAsyncIterator(firings);
  }
}

@Resolver(() => ScheduleFiring)
export class ScheduleFiringResolver {
  @ResolveField(() => Run, { nullable: true, description: 'The run it started (null until started, or when it never did)' })
  async run(@Parent() firing: FiringView, @Context() { loaders }: GraphqlContext) {
    if (!firing.runId || firing.status !== 'started') return null;
    const row = await loaders.of(RunLoaders).runById.load(firing.runId);
    return row ? runOf(row) : null;
  }
}

/** issue 30: the schedule firing a run was started by (a root run a schedule fired), from the run's row. */
@Resolver(() => Run)
export class RunScheduledByResolver {
  @ResolveField(() => ScheduledBy, { nullable: true, description: 'The schedule and firing that started it; null when no schedule did' })
  scheduledBy(@Parent() run: RunRow): ScheduledBy | null {
    if (!run.scheduledBy) return null;
    const { scheduleId, firingId } = JSON.parse(run.scheduledBy) as ScheduledBy;
    return { scheduleId, firingId };
  }
}

@Resolver(() => ScheduledBy)
export class ScheduledByResolver {
  constructor(private readonly queryBus: QueryBus) {}

  @ResolveField(() => Schedule, { nullable: true, description: 'The schedule; null once it was deleted' })
  async schedule(@Parent() by: ScheduledBy): Promise<Schedule | null> {
    try {
      return scheduleOf(await this.queryBus.execute(new GetSchedule(by.scheduleId)));
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) return null;
      throw error;
    }
  }
}

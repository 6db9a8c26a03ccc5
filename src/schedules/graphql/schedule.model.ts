import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { BudgetLimits, RunBudgetInput, PageInfo } from '../../graphql-api';
import { PermissionPolicyInput, SessionPermissionPolicy, WorkspaceInput } from '../../sessions';

@ObjectType({ description: 'Why a firing was skipped or did not start: a stable code and words for a person' })
export class ScheduleFiringReason {
  @Field({ description: 'overlap, missed, schedule_disabled, instance_lost, or the refusal code (unknown_agent, budget_exceeded, ...)' })
  code!: string;
  @Field() message!: string;
}

@ObjectType({ description: 'One firing of a schedule: what was due, when it fired, the run it started or why it did not' })
export class ScheduleFiring {
  @Field(() => ID) id!: string;
  @Field(() => ID) scheduleId!: string;
  @Field({ description: 'The due time it is for (a manual firing: when it was asked for)' }) dueAt!: string;
  @Field(() => String, { nullable: true, description: 'When it was claimed (null: skipped)' }) firedAt!: string | null;
  @Field({ description: 'cron, at (on time), catch_up (the last firing missed during downtime) or manual (run now)' }) trigger!: string;
  @Field({ description: 'starting, started, skipped, retrying or failed' }) status!: string;
  @Field(() => ID, { nullable: true, description: 'The run it started (or tries to start)' }) runId!: string | null;
  @Field(() => String, { nullable: true, description: "Its run's status once started" }) runStatus!: string | null;
  @Field({ description: "The run's status once started (running, completed, failed, stopped, interrupted), else the firing's status" })
  outcome!: string;
  @Field(() => Int, { description: '1 for the first try, one more per retry of a failed start' }) attempt!: number;
  @Field(() => String, { nullable: true, description: 'When the next try to start is due (status retrying)' }) retryAt!: string | null;
  @Field(() => Int, { description: 'Due times missed during downtime that this firing stands for (besides its own)' }) missedCount!: number;
  @Field(() => ScheduleFiringReason, { nullable: true, description: 'Why it was skipped or failed' }) reason!: ScheduleFiringReason | null;
}

@ObjectType({ description: "issue 42: the git repository each firing's run works in, a worktree of its own" })
export class ScheduleWorkspace {
  @Field() repository!: string;
  @Field(() => String, { nullable: true }) ref!: string | null;
  @Field(() => String, { nullable: true, description: 'auto or manual' }) merge!: string | null;
}

@ObjectType({ description: 'A schedule: an agent run with a prompt on a cron expression or at one time, each firing recorded' })
export class Schedule {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() agentId!: string;
  @Field() prompt!: string;
  @Field(() => String, { nullable: true, description: "The model of each firing's run; null: the agent's, else the service default" }) model!:
    string | null;
  @Field(() => SessionPermissionPolicy, { nullable: true, description: "The permission policy of each firing's run; null: the agent's" })
  permissionPolicy!: SessionPermissionPolicy | null;
  @Field(() => BudgetLimits, { nullable: true, description: "A budget over each firing's run tree; null: none" }) budget!: BudgetLimits | null;
  @Field(() => ScheduleWorkspace, { nullable: true, description: "The repository each firing's run works in; null: none" })
  workspace!: ScheduleWorkspace | null;
  @Field(() => String, { nullable: true, description: 'A cron expression (5 fields, or 6 with seconds first), read in timeZone' }) cron!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601: the one time a one-off schedule fires' }) at!: string | null;
  @Field({ description: 'IANA time zone the cron expression is read in' }) timeZone!: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601: nothing fires after it' }) endsAt!: string | null;
  @Field() enabled!: boolean;
  @Field({ description: 'skip (a due firing is skipped while the previous firing still runs) or allow' }) overlap!: string;
  @Field({ description: 'After downtime: skip the missed firings, or run the last one once' }) catchUp!: string;
  @Field(() => Int, { description: 'Pass as expectedVersion to change it only if nobody did since' }) version!: number;
  @Field() createdAt!: string;
  @Field() updatedAt!: string;
  @Field(() => String, { nullable: true, description: 'The next due time; null when disabled or nothing is due any more' })
  nextFiringAt!: string | null;
  @Field(() => [String], { description: 'The next due times (schedule(id) only; empty in the list)' }) nextFirings!: string[];
  @Field(() => ScheduleFiring, { nullable: true, description: 'Its newest firing' }) lastFiring!: ScheduleFiring | null;
}

// Pages without per-item cursors: the read model's keyset cursor marks where a page ends (pageInfo.endCursor).
@ObjectType({ description: 'A page of schedules; pageInfo.endCursor asks for the next' })
export class ScheduleConnection {
  @Field(() => [Schedule]) nodes!: Schedule[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@ObjectType({ description: 'A page of firings, newest first; pageInfo.endCursor asks for the next' })
export class ScheduleFiringConnection {
  @Field(() => [ScheduleFiring]) nodes!: ScheduleFiring[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@ObjectType({ description: "When a timing would fire, and what is wrong with it (the editor's preview before save)" })
export class SchedulePreview {
  @Field(() => [String], { description: 'The next due times (at most five), ISO 8601' }) nextFirings!: string[];
  @Field(() => [String], { description: 'Why the timing cannot be saved; empty when it can' }) problems!: string[];
}

@ObjectType({ description: 'The schedule firing that started a run' })
export class ScheduledBy {
  @Field(() => ID) scheduleId!: string;
  @Field(() => ID) firingId!: string;
}

@ObjectType()
export class DeletedSchedule {
  @Field(() => ID) id!: string;
  @Field() deleted!: boolean;
}

/** The POST /api/schedules body in GraphQL: checked by the same schema. */
@InputType()
export class ScheduleInput {
  @Field({ nullable: true, description: 'Default: the agent id and the cron expression or time' }) name?: string;
  @Field() agentId!: string;
  @Field() prompt!: string;
  @Field(() => String, { nullable: true, description: "Unset or null: the agent's model" }) model?: string | null;
  @Field(() => PermissionPolicyInput, { nullable: true, description: "Unset or null: the agent's policy" })
  permissionPolicy?: PermissionPolicyInput | null;
  @Field(() => RunBudgetInput, { nullable: true, description: 'Unset or null: no budget' }) budget?: RunBudgetInput | null;
  @Field(() => WorkspaceInput, { nullable: true, description: 'Unset or null: no workspace (needs SWITCHBOARD_REPOSITORIES)' })
  workspace?: WorkspaceInput | null;
  @Field(() => String, { nullable: true, description: 'A cron expression; give it or at' }) cron?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601 with a zone: fire once then' }) at?: string | null;
  @Field({ nullable: true, description: 'IANA time zone; default UTC' }) timeZone?: string;
  @Field({ nullable: true, description: 'Default true' }) enabled?: boolean;
  @Field({ nullable: true, description: 'skip (default) or allow' }) overlap?: string;
  @Field({ nullable: true, description: 'skip (default) or last' }) catchUp?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 with a zone; unset or null: no end' }) endsAt?: string | null;
}

/** The PATCH /api/schedules/:id body: only the fields given change (null clears a nullable one). */
@InputType()
export class ScheduleChangesInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) agentId?: string;
  @Field({ nullable: true }) prompt?: string;
  @Field(() => String, { nullable: true }) model?: string | null;
  @Field(() => PermissionPolicyInput, { nullable: true }) permissionPolicy?: PermissionPolicyInput | null;
  @Field(() => RunBudgetInput, { nullable: true }) budget?: RunBudgetInput | null;
  @Field(() => WorkspaceInput, { nullable: true }) workspace?: WorkspaceInput | null;
  @Field(() => String, { nullable: true }) cron?: string | null;
  @Field(() => String, { nullable: true }) at?: string | null;
  @Field({ nullable: true }) timeZone?: string;
  @Field({ nullable: true }) enabled?: boolean;
  @Field({ nullable: true }) overlap?: string;
  @Field({ nullable: true }) catchUp?: string;
  @Field(() => String, { nullable: true }) endsAt?: string | null;
}

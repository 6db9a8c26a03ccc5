import { type DomainEvent, eventGuard } from '../event-store';
import type { Budget, PermissionPolicy } from '../sessions';

/**
 * issue 30: scheduled runs. Two kinds of stream:
 * - `schedule-<scheduleId>`: what the schedule is (its definition, on or off, deleted);
 * - `schedule_firing-<firingId>`: one firing. Its first event (claimed or skipped) is appended at
 *   expected version 0, so of several instances firing the same due time exactly one writes it.
 */
export const ScheduleEvents = {
  created: 'schedule.created',
  updated: 'schedule.updated',
  enabled: 'schedule.enabled',
  disabled: 'schedule.disabled',
  deleted: 'schedule.deleted',
  firingClaimed: 'schedule.firing_claimed',
  firingStarted: 'schedule.firing_started',
  firingSkipped: 'schedule.firing_skipped',
  firingFailed: 'schedule.firing_failed',
} as const;

/** `skip`: a due firing is skipped while the previous firing's run still runs; `allow`: it starts anyway. */
export const OVERLAP_POLICIES = ['skip', 'allow'] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

/** After downtime: `skip` the missed firings, or run the `last` missed one once. */
export const CATCH_UP_POLICIES = ['skip', 'last'] as const;
export type CatchUpPolicy = (typeof CATCH_UP_POLICIES)[number];

/** When a schedule fires: a cron expression (5 fields, or 6 with seconds first) or one time (`at`). */
export interface ScheduleTiming {
  cron: string | null;
  /** ISO 8601 UTC instant of a one-off firing. */
  at: string | null;
  /** IANA time zone the cron expression is read in (`UTC`, `Europe/Berlin`). */
  timeZone: string;
  /** ISO 8601 UTC instant after which nothing fires; null: no end. */
  endsAt: string | null;
}

export interface ScheduleWorkspace {
  repository: string;
  ref?: string;
  merge?: 'auto' | 'manual';
}

/** Everything a schedule is, as given (checked) at create and replaced whole at update. */
export interface ScheduleDefinition extends ScheduleTiming {
  name: string;
  agentId: string;
  prompt: string;
  /** The model of the run's session; null: the agent's, else the service default. */
  model: string | null;
  /** The permission policy of the run's session; null: the agent's, else the default. */
  permissionPolicy: PermissionPolicy | null;
  /** A budget over each firing's run tree (tools' snake_case names, as runs store it); null: none. */
  budget: Budget | null;
  /**
   * issue 42: the git repository each firing's run works in (a worktree of its own); null or absent (a
   * schedule recorded before workspaces): the run's agent's default, else none.
   */
  workspace?: ScheduleWorkspace | null;
  overlap: OverlapPolicy;
  catchUp: CatchUpPolicy;
}

export interface ScheduleCreatedData {
  scheduleId: string;
  definition: ScheduleDefinition;
  enabled: boolean;
}

export interface ScheduleUpdatedData {
  scheduleId: string;
  /** The whole definition after the change. */
  definition: ScheduleDefinition;
}

export interface ScheduleToggledData {
  scheduleId: string;
}

export interface ScheduleDeletedData {
  scheduleId: string;
}

/**
 * Why a firing happened: `cron` / `at` on time; `catch_up`: the last firing missed while no instance
 * was up (catch-up policy `last`); `manual`: "run now".
 */
export const FIRING_TRIGGERS = ['cron', 'at', 'catch_up', 'manual'] as const;
export type FiringTrigger = (typeof FIRING_TRIGGERS)[number];

export interface FiringClaimedData {
  firingId: string;
  scheduleId: string;
  /** ISO: the due time it is for (a manual firing: when it was asked for). */
  dueAt: string;
  trigger: FiringTrigger;
  /** The run this firing starts: chosen by the claimer, so whoever completes the firing starts this one run. */
  runId: string;
  /** The instance that claimed it (`InstanceLease.instanceId`): if it dies, another completes the firing. */
  instanceId: string;
  /** ISO, the scheduler's clock: when it fired. */
  firedAt: string;
  /** 1 for the first try; a retry after a failed start claims again with the next attempt and a new run id. */
  attempt: number;
  /** Due times missed before this one during downtime (catch-up `last`), else 0. */
  missedCount: number;
}

export interface FiringStartedData {
  firingId: string;
  scheduleId: string;
  runId: string;
  /** ISO: when the run was recorded started. */
  startedAt: string;
}

/** `overlap`: the previous firing's run still ran; `missed`: due while no instance was up (catch-up `skip`). */
export const FIRING_SKIP_REASONS = ['overlap', 'missed'] as const;
export type FiringSkipReason = (typeof FIRING_SKIP_REASONS)[number];

export interface FiringSkippedData {
  firingId: string;
  scheduleId: string;
  dueAt: string;
  trigger: FiringTrigger;
  reason: FiringSkipReason;
  /** Words for a person: which run still ran, or how many due times were missed since when. */
  message: string;
  /** `overlap`: the run that still ran. */
  runningRunId?: string;
  /** `missed`: how many due times this one record stands for (this due time included). */
  missedCount: number;
  instanceId: string;
  skippedAt: string;
}

export interface FiringFailedData {
  firingId: string;
  scheduleId: string;
  /** The run that did not start. */
  runId: string;
  attempt: number;
  /** The refusal's error code (`unknown_agent`, `budget_exceeded`, `database_unavailable`, ...) or `instance_lost`. */
  code: string;
  message: string;
  /** ISO: when the next attempt is due; null: not retried (a permanent refusal, or the last attempt). */
  retryAt: string | null;
  failedAt: string;
}

export type ScheduleCreated = DomainEvent<typeof ScheduleEvents.created, ScheduleCreatedData>;
export type ScheduleUpdated = DomainEvent<typeof ScheduleEvents.updated, ScheduleUpdatedData>;
export type ScheduleEnabled = DomainEvent<typeof ScheduleEvents.enabled, ScheduleToggledData>;
export type ScheduleDisabled = DomainEvent<typeof ScheduleEvents.disabled, ScheduleToggledData>;
export type ScheduleDeleted = DomainEvent<typeof ScheduleEvents.deleted, ScheduleDeletedData>;
export type FiringClaimed = DomainEvent<typeof ScheduleEvents.firingClaimed, FiringClaimedData>;
export type FiringStarted = DomainEvent<typeof ScheduleEvents.firingStarted, FiringStartedData>;
export type FiringSkipped = DomainEvent<typeof ScheduleEvents.firingSkipped, FiringSkippedData>;
export type FiringFailed = DomainEvent<typeof ScheduleEvents.firingFailed, FiringFailedData>;

/** What a `schedule-<id>` stream holds. */
export type ScheduleEvent = ScheduleCreated | ScheduleUpdated | ScheduleEnabled | ScheduleDisabled | ScheduleDeleted;
/** What a `schedule_firing-<id>` stream holds. */
export type FiringEvent = FiringClaimed | FiringStarted | FiringSkipped | FiringFailed;

export const isScheduleEvent = eventGuard<ScheduleEvent>([
  ScheduleEvents.created,
  ScheduleEvents.updated,
  ScheduleEvents.enabled,
  ScheduleEvents.disabled,
  ScheduleEvents.deleted,
]);
export const isFiringEvent = eventGuard<FiringEvent>([
  ScheduleEvents.firingClaimed,
  ScheduleEvents.firingStarted,
  ScheduleEvents.firingSkipped,
  ScheduleEvents.firingFailed,
]);

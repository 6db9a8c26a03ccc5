import type { ReadTables } from '../database';
import type { RunStatus } from '../delegation';
import type { Budget, PermissionPolicy } from '../sessions';
import type { FiringStatus } from './firing.decider';
import type { CatchUpPolicy, FiringTrigger, OverlapPolicy, ScheduleWorkspace } from './schedule.events';

export type ScheduleRow = ReadTables['schedules']['$inferSelect'];
export type FiringRow = ReadTables['scheduleFirings']['$inferSelect'];

/** A budget in the JSON API's camelCase (as POST /api/runs takes it). */
export interface BudgetView {
  maxTokens: number | null;
  maxToolCalls: number | null;
  maxRuns: number | null;
  maxDurationMs: number | null;
  maxCost: number | null;
}

/** What REST and GraphQL answer for a schedule: every key present (null when unset). */
export interface ScheduleView {
  id: string;
  name: string;
  agentId: string;
  prompt: string;
  model: string | null;
  permissionPolicy: PermissionPolicy | null;
  budget: BudgetView | null;
  workspace: ScheduleWorkspace | null;
  cron: string | null;
  at: string | null;
  timeZone: string;
  endsAt: string | null;
  enabled: boolean;
  overlap: OverlapPolicy;
  catchUp: CatchUpPolicy;
  /** The stream version: If-Match of PATCH and DELETE. */
  version: number;
  createdAt: string;
  updatedAt: string;
  /** The next due time; null when disabled or nothing is due any more. */
  nextFiringAt: string | null;
  /** The next due times (PREVIEW_FIRINGS of them) on GET of one schedule; [] in lists. */
  nextFirings: string[];
  lastFiring: FiringView | null;
}

/** A firing's outcome: the run's status once started, else where the firing is. */
export type FiringOutcome = RunStatus | Exclude<FiringStatus, 'started'>;

export interface FiringView {
  id: string;
  scheduleId: string;
  dueAt: string;
  firedAt: string | null;
  trigger: FiringTrigger;
  status: FiringStatus;
  runId: string | null;
  /** The run's own status (run-lineage), null when no run was recorded started. */
  runStatus: RunStatus | null;
  outcome: FiringOutcome;
  attempt: number;
  retryAt: string | null;
  missedCount: number;
  /** Why it was skipped or failed (`overlap`, `missed`, `unknown_agent`, ...); null otherwise. */
  reason: { code: string; message: string } | null;
}

export function budgetView(budget: Budget | null): BudgetView | null {
  if (!budget) return null;
  return {
    maxTokens: budget.max_tokens ?? null,
    maxToolCalls: budget.max_tool_calls ?? null,
    maxRuns: budget.max_runs ?? null,
    maxDurationMs: budget.max_duration_ms ?? null,
    maxCost: budget.max_cost ?? null,
  };
}

export function firingView(row: FiringRow, runStatus: RunStatus | null): FiringView {
  const status = row.status as FiringStatus;
  const started = status === 'started';
  return {
    id: row.firingId,
    scheduleId: row.scheduleId,
    dueAt: row.dueAt,
    firedAt: row.firedAt,
    trigger: row.trigger as FiringTrigger,
    status,
    runId: row.runId,
    runStatus: started ? runStatus : null,
    // A started firing whose run row is not there yet (async read paths) is running.
    outcome: started ? (runStatus ?? 'running') : status,
    attempt: row.attempt,
    retryAt: row.retryAt,
    missedCount: row.missedCount,
    reason: row.reasonCode ? { code: row.reasonCode, message: row.reasonMessage ?? '' } : null,
  };
}

export function scheduleView(row: ScheduleRow, lastFiring: FiringView | null, nextFirings: string[] = []): ScheduleView {
  return {
    id: row.scheduleId,
    name: row.name,
    agentId: row.agentId,
    prompt: row.prompt,
    model: row.model,
    permissionPolicy: row.permissionPolicy ? (JSON.parse(row.permissionPolicy) as PermissionPolicy) : null,
    budget: budgetView(row.budget ? (JSON.parse(row.budget) as Budget) : null),
    workspace: row.workspace ? (JSON.parse(row.workspace) as ScheduleWorkspace) : null,
    cron: row.cron,
    at: row.at,
    timeZone: row.timeZone,
    endsAt: row.endsAt,
    enabled: row.enabled,
    overlap: row.overlap as OverlapPolicy,
    catchUp: row.catchUp as CatchUpPolicy,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    nextFiringAt: row.nextDueAt,
    nextFirings,
    lastFiring,
  };
}

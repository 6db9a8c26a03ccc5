import { type Budget, toBudget } from '../sessions';
import { cadenceProblems, timingProblems } from './schedule-timing';
import type { ScheduleChanges, ScheduleInput } from './schedule-requests';
import type { ScheduleDefinition, ScheduleTiming } from './schedule.events';

/** The longest prompt a run's session takes. */
export const MAX_SCHEDULE_PROMPT_CHARS = 200_000;
export const MAX_SCHEDULE_NAME_CHARS = 120;

/** A create body as the definition `schedule.created` records (defaults filled in, the budget in the tools' names). */
export function definitionOf(input: ScheduleInput): ScheduleDefinition {
  const cron = input.cron ?? null;
  const at = input.at ?? null;
  return {
    name: input.name ?? defaultName(input.agentId, cron, at),
    agentId: input.agentId,
    prompt: input.prompt,
    model: input.model ?? null,
    permissionPolicy: input.permissionPolicy ?? null,
    budget: budgetOf(input.budget),
    // Only when given: a definition without one reads as before workspaces (no key, no change on a PATCH).
    ...(input.workspace ? { workspace: input.workspace } : {}),
    cron,
    at,
    timeZone: input.timeZone,
    endsAt: input.endsAt ?? null,
    overlap: input.overlap,
    catchUp: input.catchUp,
  };
}

/** The definition after a PATCH: given fields replace, null clears, absent keep. */
export function changedDefinition(current: ScheduleDefinition, changes: ScheduleChanges): ScheduleDefinition {
  const pick = <K extends keyof ScheduleDefinition>(key: K, given: ScheduleDefinition[K] | undefined): ScheduleDefinition[K] =>
    given === undefined ? current[key] : given;
  return {
    name: pick('name', changes.name),
    agentId: pick('agentId', changes.agentId),
    prompt: pick('prompt', changes.prompt),
    model: pick('model', changes.model),
    permissionPolicy: pick('permissionPolicy', changes.permissionPolicy),
    budget: changes.budget === undefined ? current.budget : budgetOf(changes.budget),
    ...(changes.workspace !== undefined ? { workspace: changes.workspace } : current.workspace !== undefined ? { workspace: current.workspace } : {}),
    cron: pick('cron', changes.cron),
    at: pick('at', changes.at),
    timeZone: pick('timeZone', changes.timeZone),
    endsAt: pick('endsAt', changes.endsAt),
    overlap: pick('overlap', changes.overlap),
    catchUp: pick('catchUp', changes.catchUp),
  };
}

/** Whether a PATCH changes anything of the definition (else it is only `enabled`, or nothing). */
export function changesDefinition(changes: ScheduleChanges): boolean {
  return Object.entries(changes).some(([key, value]) => key !== 'enabled' && value !== undefined);
}

/**
 * Everything wrong with a definition, for one 422 that names it all. `now` is the scheduler's clock: a
 * one-off time or an end in the past would never fire. They are checked when given (create, or a PATCH
 * that changes them), so a schedule whose end has passed can still be renamed.
 */
export function scheduleProblems(definition: ScheduleDefinition, now: Date, check: TimingChecks): string[] {
  const problems = timingProblemsAt(definition, now, check);
  if (definition.name.trim().length === 0 || definition.name.length > MAX_SCHEDULE_NAME_CHARS)
    problems.push(`name must be 1 to ${MAX_SCHEDULE_NAME_CHARS} characters`);
  if (definition.prompt.trim().length === 0) problems.push('prompt must not be empty');
  if (definition.prompt.length > MAX_SCHEDULE_PROMPT_CHARS) problems.push(`prompt must be at most ${MAX_SCHEDULE_PROMPT_CHARS} characters`);
  return problems;
}

/**
 * Which parts of the timing are checked against now and the operator's minimum interval: those given
 * (create, preview) or changed by a PATCH, so a schedule whose end has passed can still be renamed.
 */
export interface TimingChecks {
  /** The one-off time must lie ahead. */
  at: boolean;
  /** The end must lie ahead. */
  endsAt: boolean;
  /** The cron (or its zone) changed: it must fire, and no two firings closer than `minIntervalSeconds`. */
  cadence: boolean;
  /** SWITCHBOARD_SCHEDULE_MIN_INTERVAL. */
  minIntervalSeconds: number;
}

/** `timingProblems`, then what keeps it from firing from `now` on (what the preview answers too). */
export function timingProblemsAt(timing: ScheduleTiming, now: Date, check: TimingChecks): string[] {
  const problems = timingProblems(timing);
  if (problems.length > 0) return problems;
  if (check.at && timing.at !== null && Date.parse(timing.at) <= now.getTime())
    problems.push(`at is in the past (${timing.at}; now is ${now.toISOString()})`);
  if (check.endsAt && timing.endsAt !== null && Date.parse(timing.endsAt) <= now.getTime()) {
    problems.push(`endsAt is in the past (${timing.endsAt}; now is ${now.toISOString()})`);
  }
  if (problems.length === 0 && (check.at || check.endsAt || check.cadence)) {
    problems.push(...cadenceProblems(timing, now, check.cadence ? check.minIntervalSeconds : undefined));
  }
  return problems;
}

/** Everything of a timing checked: a new schedule, a preview. */
export function allTimingChecks(minIntervalSeconds: number): TimingChecks {
  return { at: true, endsAt: true, cadence: true, minIntervalSeconds };
}

export function timingOfDefinition(definition: ScheduleDefinition): ScheduleTiming {
  return { cron: definition.cron, at: definition.at, timeZone: definition.timeZone, endsAt: definition.endsAt };
}

function defaultName(agentId: string, cron: string | null, at: string | null): string {
  return `${agentId} ${cron ?? at ?? ''}`.trim().slice(0, MAX_SCHEDULE_NAME_CHARS);
}

function budgetOf(input: ScheduleInput['budget']): Budget | null {
  const budget = toBudget(input ?? undefined);
  return budget && Object.keys(budget).length > 0 ? budget : null;
}

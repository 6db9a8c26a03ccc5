// What the schedule editor sends and what the schedule pages say: the draft as the API's ScheduleInput
// (a one-off time and an end date read in the schedule's own time zone), timings and outcomes in words.

import {
  type BudgetDraft,
  type BudgetLimits,
  budgetDraftOf,
  budgetOf,
  type BudgetValue,
  emptyBudget,
  chosenPolicyOf,
  type PolicyDraft,
  policyDraftOf,
  type WorkspaceDraft,
  workspaceDraftOf,
  workspaceOf,
} from '../session-settings';

export type TimingKind = 'cron' | 'at';

export interface ScheduleDraft {
  name: string;
  agentId: string;
  prompt: string;
  kind: TimingKind;
  cron: string;
  /** datetime-local value (`2026-12-01T09:00`), a wall-clock time in `timeZone`. */
  at: string;
  timeZone: string;
  /** datetime-local value in `timeZone`; empty: no end. */
  endsAt: string;
  overlap: 'skip' | 'allow';
  catchUp: 'skip' | 'last';
  model: string;
  budget: BudgetDraft;
  /** What each firing's run may do (nothing set: the service's default, every kind denied). */
  policy: PolicyDraft;
  /** issue 42: the repository each firing's run works in; an empty repository: none. */
  workspace: WorkspaceDraft;
}

export function emptyDraft(agentId = ''): ScheduleDraft {
  return {
    name: '',
    agentId,
    prompt: '',
    kind: 'cron',
    cron: '0 9 * * 1-5',
    at: '',
    timeZone: browserTimeZone(),
    endsAt: '',
    overlap: 'skip',
    catchUp: 'skip',
    model: '',
    budget: emptyBudget(),
    policy: { kinds: {}, askTools: [] },
    workspace: { repository: '', ref: '', merge: 'auto' },
  };
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The time zones the browser knows (for the editor's suggestions); UTC first. */
export function knownTimeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...supported.filter((zone) => zone !== 'UTC')];
}

/** The timing the preview asks about: only the chosen kind's value, the wall-clock times read in the zone. */
export interface TimingInput {
  cron: string | null;
  at: string | null;
  timeZone: string;
  endsAt: string | null;
}

export function timingOf(draft: ScheduleDraft): TimingInput {
  const timeZone = draft.timeZone.trim() || 'UTC';
  return {
    cron: draft.kind === 'cron' ? draft.cron.trim() : null,
    at: draft.kind === 'at' ? (wallTimeToIso(draft.at, timeZone) ?? (draft.at.trim() || null)) : null,
    timeZone,
    endsAt: draft.endsAt.trim() ? (wallTimeToIso(draft.endsAt, timeZone) ?? draft.endsAt.trim()) : null,
  };
}

export interface ScheduleInputValue extends TimingInput {
  name?: string;
  agentId: string;
  prompt: string;
  overlap: string;
  catchUp: string;
  model: string | null;
  budget: BudgetValue | null;
  permissionPolicy: ReturnType<typeof chosenPolicyOf>;
  workspace: ReturnType<typeof workspaceOf>;
}

/** The input to send, or the problems the editor shows before asking the service (which checks it all again). */
export function scheduleInputOf(draft: ScheduleDraft): { input?: ScheduleInputValue; problems: string[] } {
  const problems: string[] = [];
  if (!draft.agentId) problems.push('agentId: pick an agent');
  if (!draft.prompt.trim()) problems.push('prompt: say what the agent should do');
  if (draft.kind === 'at' && !draft.at.trim()) problems.push('at: pick the time it runs');
  const budget = budgetOf(draft.budget);
  if (Object.keys(budget.problems).length > 0) problems.push('budget: every limit is a positive number (or empty)');
  if (problems.length > 0) return { problems };
  const name = draft.name.trim();
  return {
    input: {
      ...(name ? { name } : {}),
      agentId: draft.agentId,
      prompt: draft.prompt,
      ...timingOf(draft),
      overlap: draft.overlap,
      catchUp: draft.catchUp,
      model: draft.model.trim() || null,
      budget: budget.budget ?? null,
      permissionPolicy: chosenPolicyOf(draft.policy),
      workspace: workspaceOf(draft.workspace),
    },
    problems,
  };
}

/** A saved schedule as the editor's draft (its times shown in its own zone). */
export interface SavedSchedule {
  name: string;
  agentId: string;
  prompt: string;
  cron?: string | null;
  at?: string | null;
  timeZone: string;
  endsAt?: string | null;
  overlap: string;
  catchUp: string;
  model?: string | null;
  budget?: BudgetLimits | null;
  permissionPolicy?: { allowKinds: readonly string[]; askKinds: readonly string[]; askTools: readonly string[] } | null;
  workspace?: { repository: string; ref?: string | null; merge?: string | null } | null;
}

export function draftOf(schedule: SavedSchedule): ScheduleDraft {
  return {
    name: schedule.name,
    agentId: schedule.agentId,
    prompt: schedule.prompt,
    kind: schedule.at ? 'at' : 'cron',
    cron: schedule.cron ?? '',
    at: schedule.at ? isoToWallTime(schedule.at, schedule.timeZone) : '',
    timeZone: schedule.timeZone,
    endsAt: schedule.endsAt ? isoToWallTime(schedule.endsAt, schedule.timeZone) : '',
    overlap: schedule.overlap === 'allow' ? 'allow' : 'skip',
    catchUp: schedule.catchUp === 'last' ? 'last' : 'skip',
    model: schedule.model ?? '',
    budget: budgetDraftOf(schedule.budget),
    policy: policyDraftOf(schedule.permissionPolicy),
    workspace: workspaceDraftOf(schedule.workspace),
  };
}

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** How far `timeZone`'s wall clock is ahead of UTC at `instant` (ms). */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return wall - (instant - (instant % 1000));
}

/**
 * A datetime-local value read as a wall-clock time in `timeZone`, as ISO 8601 UTC; undefined when it is
 * not one or the zone is unknown. A time skipped by a spring-forward change moves on by the gap (02:30 → 03:30).
 */
export function wallTimeToIso(value: string, timeZone: string): string | undefined {
  const m = WALL_TIME.exec(value.trim());
  if (!m) return undefined;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], m[6] ? +m[6] : 0);
  try {
    // Two rounds: the offset at the first guess may differ from the offset at the answer (near a DST change).
    let instant = wall - zoneOffsetMs(wall, timeZone);
    instant = wall - zoneOffsetMs(instant, timeZone);
    return new Date(instant).toISOString().replace('.000Z', 'Z');
  } catch {
    return undefined;
  }
}

/** An instant as a datetime-local value in `timeZone` (minutes; seconds when it has some). */
export function isoToWallTime(iso: string, timeZone: string): string {
  const instant = Date.parse(iso);
  if (!Number.isFinite(instant)) return '';
  let offset: number;
  try {
    offset = zoneOffsetMs(instant, timeZone);
  } catch {
    // An unknown zone: shown as UTC (the preview names the zone's problem).
    offset = 0;
  }
  const wall = new Date(instant + offset).toISOString();
  return wall.slice(16, 19) === ':00' ? wall.slice(0, 16) : wall.slice(0, 19);
}

/** A due time in the schedule's zone, with the zone named: "Mon, 1 Dec 2026, 09:00 (Europe/Berlin)". */
export function dueTimeText(iso: string, timeZone: string): string {
  try {
    const text = new Date(iso).toLocaleString('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: new Date(iso).getUTCSeconds() ? '2-digit' : undefined,
    });
    return `${text} (${timeZone})`;
  } catch {
    return iso;
  }
}

/** When a schedule fires, in words: its cron expression or its one time, and the zone. */
export function timingText(schedule: { cron?: string | null; at?: string | null; timeZone: string }): string {
  if (schedule.cron) return `cron ${schedule.cron} (${schedule.timeZone})`;
  if (schedule.at) return `once, ${dueTimeText(schedule.at, schedule.timeZone)}`;
  return '—';
}

/** Whether a firing's run is still to end (its end reaches no firing subscription: pages ask again meanwhile). */
export function firingUnderway(outcome: string): boolean {
  return outcome === 'starting' || outcome === 'running' || outcome === 'retrying';
}

/** The badge colour of a firing's outcome (its run's status once started, else the firing's). */
export function outcomeTone(outcome: string): 'live' | 'done' | 'attention' | 'over' | 'pending' {
  if (outcome === 'running' || outcome === 'starting') return 'live';
  if (outcome === 'completed') return 'done';
  if (outcome === 'failed' || outcome === 'interrupted') return 'attention';
  if (outcome === 'retrying') return 'pending';
  return 'over';
}

const TRIGGERS: Record<string, string> = { cron: 'on time', at: 'on time', catch_up: 'catch-up', manual: 'run now' };

/** Why a firing happened, in words. */
export function triggerText(trigger: string): string {
  return TRIGGERS[trigger] ?? trigger;
}

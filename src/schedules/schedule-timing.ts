import { Cron } from 'croner';
import type { ScheduleTiming } from './schedule.events';

/** How many firings a preview lists (the editor shows them before save). */
export const PREVIEW_FIRINGS = 5;

/**
 * When a schedule fires, read with croner (a maintained cron library: seconds, time zones, DST). Pure:
 * the projection computes `next_due_at` with it, the scheduler its due times, the API its preview.
 *
 * DST: a wall-clock time skipped by a spring-forward change fires at the first instant after the gap
 * (02:30 on the night clocks go 02:00 → 03:00 fires at 03:00); a time that happens twice in the autumn
 * fires once, at its first occurrence.
 */
export function timingProblems(timing: ScheduleTiming): string[] {
  const problems: string[] = [];
  if ((timing.cron === null) === (timing.at === null)) problems.push('give exactly one of cron (a cron expression) or at (one time, ISO 8601)');
  if (!validTimeZone(timing.timeZone)) problems.push(`timeZone ${timing.timeZone} is not an IANA time zone (e.g. UTC, Europe/Berlin, America/New_York)`);
  if (timing.cron !== null) {
    const fields = timing.cron.trim().split(/\s+/).length;
    if (fields !== 5 && fields !== 6) {
      problems.push(`cron must have 5 fields (minute hour day month weekday) or 6 with seconds first; "${timing.cron}" has ${fields}`);
    } else {
      try {
        new Cron(timing.cron, { paused: true });
      } catch (error) {
        problems.push(`cron "${timing.cron}" is not valid: ${cronMessage(error)}`);
      }
    }
  }
  if (timing.at !== null && !isInstant(timing.at)) problems.push(`at must be an ISO 8601 time with a zone (e.g. 2026-12-01T09:00:00Z); got ${timing.at}`);
  if (timing.endsAt !== null && !isInstant(timing.endsAt)) problems.push(`endsAt must be an ISO 8601 time with a zone; got ${timing.endsAt}`);
  return problems;
}

/** How many of a cron's next firings the minimum interval is judged on: every gap of its pattern shows up in them. */
export const CADENCE_SAMPLE_FIRINGS = 100;

/**
 * What keeps a timing without pattern problems (`timingProblems` found none) from firing usefully
 * (issue 39): a cron no date matches (`0 0 30 2 *`), an end before the first firing, or two firings
 * of one cron closer than `minIntervalSeconds` (the operator's SWITCHBOARD_SCHEDULE_MIN_INTERVAL; not
 * checked when undefined), judged on its next CADENCE_SAMPLE_FIRINGS firings from `now`.
 */
export function cadenceProblems(timing: ScheduleTiming, now: Date, minIntervalSeconds: number | undefined): string[] {
  if (timing.cron === null) {
    if (timing.at !== null && timing.endsAt !== null && Date.parse(timing.at) > Date.parse(timing.endsAt)) {
      return [`endsAt ${timing.endsAt} is before at ${timing.at}: the schedule would never fire; give an endsAt after at, or none`];
    }
    return [];
  }
  const cron = cronOf(timing);
  let previous = cron.nextRun(now);
  if (previous === null) {
    return [`cron "${timing.cron}" never fires: no date matches it (such as February 30); give a cron that matches a real date`];
  }
  const problems: string[] = [];
  if (timing.endsAt !== null && previous.getTime() > Date.parse(timing.endsAt)) {
    problems.push(
      `endsAt ${timing.endsAt} is before the first firing (${previous.toISOString()}): the schedule would never fire; give a later endsAt, or none`,
    );
  }
  if (minIntervalSeconds === undefined) return problems;
  const minMs = minIntervalSeconds * 1000;
  for (let i = 1; i < CADENCE_SAMPLE_FIRINGS; i++) {
    const next = cron.nextRun(previous);
    if (next === null) break;
    if (next.getTime() - previous.getTime() < minMs) {
      problems.push(
        `cron "${timing.cron}" fires ${secondsApart(next.getTime() - previous.getTime())} apart (${previous.toISOString()} and ${next.toISOString()}); ` +
          `firings must be at least ${minIntervalSeconds} s apart (SWITCHBOARD_SCHEDULE_MIN_INTERVAL, set by the operator): give a cron that fires less often`,
      );
      break;
    }
    previous = next;
  }
  return problems;
}

function secondsApart(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** The due times strictly after `after`, at most `count`, none past `endsAt`. Assumes `timingProblems` found none. */
export function dueTimesAfter(timing: ScheduleTiming, after: Date, count: number): Date[] {
  const end = timing.endsAt === null ? Infinity : Date.parse(timing.endsAt);
  if (timing.at !== null) {
    const at = Date.parse(timing.at);
    return at > after.getTime() && at <= end && count > 0 ? [new Date(at)] : [];
  }
  const cron = cronOf(timing);
  return cron.nextRuns(count, after).filter((due) => due.getTime() <= end);
}

/** The first due time strictly after `after`, or null when there is none (a one-off past, an end date reached). */
export function nextDueAfter(timing: ScheduleTiming, after: Date): Date | null {
  return dueTimesAfter(timing, after, 1)[0] ?? null;
}

/**
 * The latest due time in `(after, until]`, or null: the catch-up policy's "last missed firing". Walks
 * backwards from `until`, so a long downtime of a per-second schedule costs one step, not one per second.
 */
export function lastDueIn(timing: ScheduleTiming, after: Date, until: Date): Date | null {
  const end = timing.endsAt === null ? until.getTime() : Math.min(until.getTime(), Date.parse(timing.endsAt));
  if (timing.at !== null) {
    const at = Date.parse(timing.at);
    return at > after.getTime() && at <= end ? new Date(at) : null;
  }
  if (end <= after.getTime()) return null;
  // previousRuns is strictly before its date: ask from one ms past the end so a due time at `end` counts.
  const [last] = cronOf(timing).previousRuns(1, new Date(end + 1));
  return last && last.getTime() > after.getTime() ? last : null;
}

function cronOf(timing: ScheduleTiming): Cron {
  return new Cron(timing.cron as string, { paused: true, timezone: timing.timeZone });
}

function validTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone.length > 0;
  } catch {
    return false;
  }
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function isInstant(value: string): boolean {
  return INSTANT.test(value) && Number.isFinite(Date.parse(value));
}

function cronMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^CronPattern:\s*/, '');
}

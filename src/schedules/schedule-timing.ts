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

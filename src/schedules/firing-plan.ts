import type { CatchUpPolicy, FiringTrigger, OverlapPolicy, ScheduleTiming } from './schedule.events';
import { dueTimesAfter, lastDueIn } from './schedule-timing';

/** A due time within this long before now fires on time; an older one was missed (no instance was firing). */
export const ON_TIME_GRACE_MS = 60_000;

/** Counting missed due times stops here (a per-second schedule down for a day): the record says "10,000 or more". */
export const MISSED_COUNT_CAP = 10_000;

/** At most this many on-time firings per tick (a per-second schedule within the grace has 61). */
const ON_TIME_LIMIT = 100;

/** What the scheduler does for one schedule now: the missed due times' one record, then each on-time firing, oldest first. */
export type PlannedFiring =
  | {
      kind: 'fire';
      dueAt: Date;
      trigger: Exclude<FiringTrigger, 'manual'>;
      /** catch-up `last`: the due times missed before this one. */
      missedCount: number;
      missedCapped: boolean;
    }
  | {
      kind: 'skip_missed';
      /** The newest missed due time (the record's firing id is derived from it). */
      dueAt: Date;
      /** The oldest missed due time, for the message. */
      firstMissedAt: Date;
      /** Every missed due time, this one included. */
      missedCount: number;
      missedCapped: boolean;
    };

/** The parts of a schedule the plan reads. */
export interface PlannableSchedule {
  timing: ScheduleTiming;
  catchUp: CatchUpPolicy;
  /** Due times at or before this are done (fired, skipped, or before the schedule was enabled). */
  cursorAt: Date;
}

/**
 * Pure: the firings due in `(cursorAt, now]`. Due times within `graceMs` of now fire on time (trigger
 * `cron` / `at`); older ones were missed while no instance fired: catch-up `skip` records them as one
 * skipped firing, `last` fires the newest of them once (trigger `catch_up`).
 */
export async function planFirings(schedule: PlannableSchedule, now: Date, graceMs = ON_TIME_GRACE_MS): Promise<PlannedFiring[]> {
  const { timing, cursorAt } = schedule;
  const nowMs = now.getTime();
  if (cursorAt.getTime() >= nowMs) return [];
  const onTimeFrom = nowMs - graceMs;
  const plan: PlannedFiring[] = [];
  const lastMissed = onTimeFrom - 1 > cursorAt.getTime() ? lastDueIn(timing, cursorAt, new Date(onTimeFrom - 1)) : null;
  if (lastMissed) {
    const { count, first, capped } = await countDueIn(timing, cursorAt, lastMissed);
    plan.push(
      schedule.catchUp === 'skip'
        ? { kind: 'skip_missed', dueAt: lastMissed, firstMissedAt: first ?? lastMissed, missedCount: count, missedCapped: capped }
        : { kind: 'fire', dueAt: lastMissed, trigger: 'catch_up', missedCount: count - 1, missedCapped: capped },
    );
  }
  const after = new Date(Math.max(cursorAt.getTime(), onTimeFrom - 1));
  const trigger = timing.at !== null ? 'at' : 'cron';
  for (const dueAt of dueTimesAfter(timing, after, ON_TIME_LIMIT)) {
    if (dueAt.getTime() > nowMs) break;
    plan.push({ kind: 'fire', dueAt, trigger, missedCount: 0, missedCapped: false });
  }
  return plan;
}

/**
 * How many due times lie in `(after, until]` (counted up to MISSED_COUNT_CAP), and the first of them.
 * Pure, but a thousand at a time with the event loop free in between: 10,000 croner steps take about
 * half a second, which a per-second schedule back from a long downtime would otherwise hold the loop for.
 */
export async function countDueIn(timing: ScheduleTiming, after: Date, until: Date): Promise<{ count: number; first: Date | undefined; capped: boolean }> {
  let count = 0;
  let first: Date | undefined;
  let cursor = after;
  while (count < MISSED_COUNT_CAP) {
    const batch = dueTimesAfter(timing, cursor, Math.min(1_000, MISSED_COUNT_CAP - count));
    const within = batch.filter((due) => due.getTime() <= until.getTime());
    first ??= within[0];
    count += within.length;
    if (within.length < batch.length || batch.length === 0) return { count, first, capped: false };
    cursor = batch[batch.length - 1];
    await new Promise((resolve) => setImmediate(resolve));
  }
  // The cap reached exactly at `until` is still an exact count.
  const more = dueTimesAfter(timing, cursor, 1)[0];
  return { count, first, capped: more !== undefined && more.getTime() <= until.getTime() };
}

/** How the missed count reads: "3", or "10,000 or more". */
export function missedCountText(count: number, capped: boolean): string {
  return capped ? `${MISSED_COUNT_CAP.toLocaleString('en-US')} or more` : String(count);
}

/** The previous firing of a schedule as the overlap rule sees it. */
export interface PreviousFiring {
  status: 'starting' | 'started' | 'skipped' | 'retrying' | 'failed';
  runId: string | null;
  /** The run's status (runs read model), null when the run is not recorded (yet). */
  runStatus: string | null;
}

/**
 * Overlap `skip`: the run a new firing would overlap with (the previous firing's run still running, or
 * its start still under way), else null. `allow`, and no previous firing, never block.
 */
export function overlappingRun(policy: OverlapPolicy, previous: PreviousFiring | undefined): string | null {
  if (policy === 'allow' || !previous?.runId) return null;
  if (previous.status === 'starting') return previous.runId;
  return previous.status === 'started' && previous.runStatus === 'running' ? previous.runId : null;
}

import { eq, sql } from 'drizzle-orm';
import { actorOfMetadata } from '../../common';
import type { ReadModelDatabase } from '../../database';
import type { StoredEvent } from '../../event-store';
import { one, type ProjectionWork, PerEventProjection, ReadModelProjection, run, runPrepared } from '../../projections';
import { nextDueAfter, timingProblems } from '../schedule-timing';
import {
  type FiringClaimedData,
  type FiringEvent,
  type FiringSkippedData,
  type ScheduleDefinition,
  type ScheduleEvent,
  ScheduleEvents,
  type ScheduleTiming,
  isFiringEvent,
  isScheduleEvent,
} from '../schedule.events';
import type { ScheduleRow } from '../schedule-view';

/**
 * Inline: `schedules` and `schedule_firings` are in the commit that records their events, so the
 * scheduler's next read sees a claimed firing's schedule moved on, and a rebuild gives the same rows:
 * everything here comes from the events (their data and recordedAt), never from the wall clock.
 *
 * `cursor_at`: due times at or before it are done (fired, skipped) or were not due (before the schedule
 * existed, was enabled, or got its timing); `next_due_at` is the first due time after it while enabled.
 */
@ReadModelProjection()
export class SchedulesProjection extends PerEventProjection {
  readonly name = 'schedules';
  readonly mode = 'inline';
  readonly tables = ['schedules', 'scheduleFirings'] as const;
  readonly eventTypes = Object.values(ScheduleEvents);

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (isScheduleEvent(event)) yield* this.applySchedule(event, db);
    else if (isFiringEvent(event)) yield* this.applyFiring(event, db);
  }

  private *applySchedule(event: StoredEvent & ScheduleEvent, db: ReadModelDatabase): ProjectionWork {
    const { schedules } = db.tables;
    const id = event.data.scheduleId;
    const changed = { version: event.streamPosition, updatedAt: event.recordedAt };
    switch (event.type) {
      case ScheduleEvents.created: {
        const { definition, enabled } = event.data;
        const cursorAt = event.recordedAt;
        const row = {
          ...definitionColumns(definition),
          enabled,
          ...changed,
          createdAt: event.recordedAt,
          createdBy: actorColumn(event.metadata),
          cursorAt,
          nextDueAt: enabled ? nextDue(definition, cursorAt) : null,
          lastFiringId: null,
          lastDueAt: null,
        };
        yield* run(
          db.orm
            .insert(schedules)
            .values({ scheduleId: id, ...row })
            .onConflictDoUpdate({ target: schedules.scheduleId, set: row }),
        );
        return;
      }
      case ScheduleEvents.updated: {
        const current = yield* currentSchedule(db, id);
        if (!current) return;
        const { definition } = event.data;
        // A new timing starts from now (the event's time): it never fires what the old one left due.
        const cursorAt = sameTiming(timingOf(current), definition) ? current.cursorAt : latest(current.cursorAt, event.recordedAt);
        const nextDueAt = current.enabled ? nextDue(definition, cursorAt) : null;
        yield* run(
          db.orm
            .update(schedules)
            .set({ ...definitionColumns(definition), ...changed, cursorAt, nextDueAt })
            .where(eq(schedules.scheduleId, id)),
        );
        return;
      }
      case ScheduleEvents.enabled: {
        const current = yield* currentSchedule(db, id);
        if (!current) return;
        // Due times while it was off are not owed: it goes on from when it was turned on.
        const cursorAt = latest(current.cursorAt, event.recordedAt);
        yield* run(
          db.orm
            .update(schedules)
            .set({ enabled: true, ...changed, cursorAt, nextDueAt: nextDue(timingOf(current), cursorAt) })
            .where(eq(schedules.scheduleId, id)),
        );
        return;
      }
      case ScheduleEvents.disabled:
        yield* run(
          db.orm
            .update(schedules)
            .set({ enabled: false, ...changed, nextDueAt: null })
            .where(eq(schedules.scheduleId, id)),
        );
        return;
      case ScheduleEvents.deleted:
        // The firings stay: the history of what ran outlives the schedule.
        yield* run(db.orm.delete(schedules).where(eq(schedules.scheduleId, id)));
        return;
    }
  }

  private *applyFiring(event: StoredEvent & FiringEvent, db: ReadModelDatabase): ProjectionWork {
    const { scheduleFirings: f } = db.tables;
    switch (event.type) {
      case ScheduleEvents.firingClaimed: {
        const d = event.data;
        const claim = {
          status: 'starting',
          runId: d.runId,
          instanceId: d.instanceId,
          firedAt: d.firedAt,
          startedAt: null,
          attempt: d.attempt,
          reasonCode: null,
          reasonMessage: null,
          retryAt: null,
          missedCount: d.missedCount,
          updatedAt: event.recordedAt,
        };
        // A retry claims the same firing again (attempt + 1, a new run id): its row, its place in the history.
        yield* run(
          db.orm
            .insert(f)
            .values({ firingId: d.firingId, scheduleId: d.scheduleId, dueAt: d.dueAt, trigger: d.trigger, position: event.globalPosition, ...claim })
            .onConflictDoUpdate({ target: f.firingId, set: claim }),
        );
        if (event.streamPosition === 1) yield* firingRecorded(db, d);
        return;
      }
      case ScheduleEvents.firingSkipped: {
        const d = event.data;
        yield* runPrepared(db, 'schedule_firings_skipped', insertSkipped, {
          firingId: d.firingId,
          scheduleId: d.scheduleId,
          dueAt: d.dueAt,
          trigger: d.trigger,
          instanceId: d.instanceId,
          firedAt: d.skippedAt,
          reasonCode: d.reason,
          reasonMessage: d.message,
          missedCount: d.missedCount,
          position: event.globalPosition,
          updatedAt: event.recordedAt,
        });
        yield* firingRecorded(db, d);
        return;
      }
      case ScheduleEvents.firingStarted: {
        const d = event.data;
        yield* run(
          db.orm
            .update(f)
            .set({
              status: 'started',
              runId: d.runId,
              startedAt: d.startedAt,
              reasonCode: null,
              reasonMessage: null,
              retryAt: null,
              updatedAt: event.recordedAt,
            })
            .where(eq(f.firingId, d.firingId)),
        );
        return;
      }
      case ScheduleEvents.firingFailed: {
        const d = event.data;
        yield* run(
          db.orm
            .update(f)
            .set({
              status: d.retryAt ? 'retrying' : 'failed',
              runId: d.runId,
              attempt: d.attempt,
              reasonCode: d.code,
              reasonMessage: d.message,
              retryAt: d.retryAt,
              updatedAt: event.recordedAt,
            })
            .where(eq(f.firingId, d.firingId)),
        );
        return;
      }
    }
  }
}

/** A new firing of a schedule: it is the schedule's last, and a due one moves the cursor past its due time. */
function* firingRecorded(db: ReadModelDatabase, firing: FiringClaimedData | FiringSkippedData): ProjectionWork {
  const { schedules } = db.tables;
  const current = yield* currentSchedule(db, firing.scheduleId);
  if (!current) return;
  const last = { lastFiringId: firing.firingId, lastDueAt: firing.dueAt };
  // "Run now" fires outside the timing: the due times are untouched.
  if (firing.trigger === 'manual') {
    yield* run(db.orm.update(schedules).set(last).where(eq(schedules.scheduleId, firing.scheduleId)));
    return;
  }
  const cursorAt = latest(current.cursorAt, firing.dueAt);
  const nextDueAt = current.enabled ? nextDue(timingOf(current), cursorAt) : null;
  yield* run(
    db.orm
      .update(schedules)
      .set({ ...last, cursorAt, nextDueAt })
      .where(eq(schedules.scheduleId, firing.scheduleId)),
  );
}

function* currentSchedule(db: ReadModelDatabase, scheduleId: string) {
  const { schedules } = db.tables;
  return yield* one<ScheduleRow>(db.orm.select().from(schedules).where(eq(schedules.scheduleId, scheduleId)));
}

/** A skipped firing is its stream's only event: one insert, built once per connection. */
function insertSkipped(db: ReadModelDatabase) {
  const { scheduleFirings: f } = db.tables;
  const p = (name: string) => sql.placeholder(name);
  return db.orm
    .insert(f)
    .values({
      firingId: p('firingId'),
      scheduleId: p('scheduleId'),
      dueAt: p('dueAt'),
      trigger: p('trigger'),
      status: 'skipped',
      runId: null,
      instanceId: p('instanceId'),
      firedAt: p('firedAt'),
      startedAt: null,
      attempt: 0,
      reasonCode: p('reasonCode'),
      reasonMessage: p('reasonMessage'),
      retryAt: null,
      missedCount: p('missedCount'),
      position: p('position'),
      updatedAt: p('updatedAt'),
    })
    .onConflictDoNothing();
}

function definitionColumns(d: ScheduleDefinition) {
  return {
    name: d.name,
    agentId: d.agentId,
    prompt: d.prompt,
    model: d.model,
    permissionPolicy: d.permissionPolicy ? JSON.stringify(d.permissionPolicy) : null,
    budget: d.budget ? JSON.stringify(d.budget) : null,
    workspace: d.workspace ? JSON.stringify(d.workspace) : null,
    cron: d.cron,
    at: d.at,
    timeZone: d.timeZone,
    endsAt: d.endsAt,
    overlap: d.overlap,
    catchUp: d.catchUp,
  };
}

function timingOf(row: Pick<ScheduleRow, 'cron' | 'at' | 'timeZone' | 'endsAt'>): ScheduleTiming {
  return { cron: row.cron, at: row.at, timeZone: row.timeZone, endsAt: row.endsAt };
}

function sameTiming(a: ScheduleTiming, b: ScheduleTiming): boolean {
  return a.cron === b.cron && a.at === b.at && a.timeZone === b.timeZone && a.endsAt === b.endsAt;
}

/** The later of two ISO instants, as an ISO string. */
function latest(a: string, b: string): string {
  return Date.parse(a) >= Date.parse(b) ? a : new Date(b).toISOString();
}

/** The first due time after `cursorAt`; a timing the handlers let through always parses, but a projection must never throw on one. */
function nextDue(timing: ScheduleTiming, cursorAt: string): string | null {
  if (timingProblems(timing).length > 0) return null;
  return nextDueAfter(timing, new Date(cursorAt))?.toISOString() ?? null;
}

/** Who created it, with its keys in one order: PostgreSQL's jsonb metadata comes back in its own key order, and a rebuild must give the same text. */
function actorColumn(metadata: StoredEvent['metadata']): string {
  const actor = actorOfMetadata(metadata);
  return JSON.stringify(actor, Object.keys(actor).sort());
}

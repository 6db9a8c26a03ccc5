import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, lte, or } from 'drizzle-orm';
import { jsonArrayValues, ReadModelDatabase } from '../database';
import type { FiringRow, ScheduleRow } from './schedule-view';

/** Where a page of schedules starts: after this one in created order. */
export interface ScheduleListKey {
  createdAt: string;
  scheduleId: string;
}

/**
 * issue 30: the one reader of `schedules` and `schedule_firings` (the schedules projection writes them).
 * Every read is one statement on either database; the scheduler acts on what it read only through the
 * firing streams, whose first append at version 0 settles any race.
 */
@Injectable()
export class SchedulesReadModel {
  constructor(private readonly db: ReadModelDatabase) {}

  private get tables() {
    return this.db.tables;
  }

  /** A page in created order (keyset on created_at, id), one row past `limit` so a caller knows there is more. */
  async list(limit: number, after?: ScheduleListKey): Promise<ScheduleRow[]> {
    const { schedules } = this.tables;
    const where = after
      ? or(gt(schedules.createdAt, after.createdAt), and(eq(schedules.createdAt, after.createdAt), gt(schedules.scheduleId, after.scheduleId)))
      : undefined;
    return this.db.orm
      .select()
      .from(schedules)
      .where(where)
      .orderBy(asc(schedules.createdAt), asc(schedules.scheduleId))
      .limit(limit + 1);
  }

  async get(scheduleId: string): Promise<ScheduleRow | undefined> {
    const { schedules } = this.tables;
    const [row] = await this.db.orm.select().from(schedules).where(eq(schedules.scheduleId, scheduleId)).limit(1);
    return row;
  }

  /** The enabled schedules with a due time at or before `now`, soonest first. */
  async dueBy(now: Date): Promise<ScheduleRow[]> {
    const { schedules } = this.tables;
    return this.db.orm
      .select()
      .from(schedules)
      .where(and(eq(schedules.enabled, true), isNotNull(schedules.nextDueAt), lte(schedules.nextDueAt, now.toISOString())))
      .orderBy(asc(schedules.nextDueAt), asc(schedules.scheduleId));
  }

  /** Firings whose failed start is due to be tried again. */
  async retryingBy(now: Date): Promise<FiringRow[]> {
    const { scheduleFirings: f } = this.tables;
    return this.db.orm
      .select()
      .from(f)
      .where(and(eq(f.status, 'retrying'), lte(f.retryAt, now.toISOString())))
      .orderBy(asc(f.retryAt), asc(f.firingId));
  }

  /** A schedule's firings, newest first (keyset on the first event's position), one row past `limit`. */
  async firings(scheduleId: string, limit: number, afterPosition?: number): Promise<FiringRow[]> {
    const { scheduleFirings: f } = this.tables;
    const where = afterPosition === undefined ? eq(f.scheduleId, scheduleId) : and(eq(f.scheduleId, scheduleId), lt(f.position, afterPosition));
    return this.db.orm
      .select()
      .from(f)
      .where(where)
      .orderBy(desc(f.position))
      .limit(limit + 1);
  }

  async firing(firingId: string): Promise<FiringRow | undefined> {
    const { scheduleFirings: f } = this.tables;
    const [row] = await this.db.orm.select().from(f).where(eq(f.firingId, firingId)).limit(1);
    return row;
  }

  /** Firings by id, in one statement; unknown ids are left out. */
  async firingsById(firingIds: readonly string[]): Promise<FiringRow[]> {
    if (firingIds.length === 0) return [];
    const { scheduleFirings: f } = this.tables;
    return this.db.orm
      .select()
      .from(f)
      .where(inArray(f.firingId, jsonArrayValues(this.db, firingIds)));
  }

  /**
   * The overlap check's input: the schedule's newest firing that started a run or is still starting
   * (a claim whose run is not recorded yet counts as running).
   */
  async lastStartedFiring(scheduleId: string): Promise<FiringRow | undefined> {
    const { scheduleFirings: f } = this.tables;
    const [row] = await this.db.orm
      .select()
      .from(f)
      .where(and(eq(f.scheduleId, scheduleId), inArray(f.status, ['started', 'starting'])))
      .orderBy(desc(f.position))
      .limit(1);
    return row;
  }

  /** Firings claimed by `instanceId` whose run is not recorded started: what a takeover completes. */
  async startingFiringsOf(instanceId: string): Promise<FiringRow[]> {
    const { scheduleFirings: f } = this.tables;
    return this.db.orm
      .select()
      .from(f)
      .where(and(eq(f.status, 'starting'), eq(f.instanceId, instanceId)))
      .orderBy(asc(f.position));
  }
}

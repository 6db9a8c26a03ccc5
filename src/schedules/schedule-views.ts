import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { InvalidInputError } from '../common';
import type { RunStatus } from '../delegation';
import { EventStore, scheduleStreamId } from '../event-store';
import { GetRunsById } from '../run-lineage';
import type { FiringPage } from './queries/list-schedule-firings/list-schedule-firings.query';
import type { SchedulePage } from './queries/list-schedules/list-schedules.query';
import { ScheduleNotFoundError } from './schedule.errors';
import { dueTimesAfter, PREVIEW_FIRINGS } from './schedule-timing';
import { type FiringRow, type FiringView, firingView, type ScheduleRow, type ScheduleView, scheduleView } from './schedule-view';
import { type ScheduleListKey, SchedulesReadModel } from './schedules-read-model';

/**
 * The schedules' rows as the API shows them: each firing with its run's own status (run-lineage),
 * read for a whole page in one query, never one per row.
 */
@Injectable()
export class ScheduleViews {
  constructor(
    private readonly schedules: SchedulesReadModel,
    private readonly queryBus: QueryBus,
    private readonly store: EventStore,
  ) {}

  /** One schedule with its next due times; 404 when there is none (or it was deleted). */
  async schedule(id: string): Promise<ScheduleView> {
    const row = await this.schedules.get(id);
    if (!row) throw new ScheduleNotFoundError(id);
    const [last] = row.lastFiringId ? await this.firingViews(await this.schedules.firingsById([row.lastFiringId])) : [];
    return scheduleView(row, last ?? null, nextFiringsOf(row));
  }

  async page(limit: number, after?: string): Promise<SchedulePage> {
    const rows = await this.schedules.list(limit, after === undefined ? undefined : decodeScheduleCursor(after));
    const page = rows.slice(0, limit);
    const lastIds = page.flatMap((row) => (row.lastFiringId ? [row.lastFiringId] : []));
    const lasts = new Map((await this.firingViews(await this.schedules.firingsById(lastIds))).map((view) => [view.id, view]));
    const last = page[page.length - 1];
    return {
      schedules: page.map((row) => scheduleView(row, (row.lastFiringId && lasts.get(row.lastFiringId)) || null)),
      nextCursor: rows.length > limit && last ? encodeScheduleCursor({ createdAt: last.createdAt, scheduleId: last.scheduleId }) : null,
    };
  }

  /** A schedule's history; a deleted schedule's is still there, a schedule that never was is 404. */
  async firingPage(scheduleId: string, limit: number, after?: string): Promise<FiringPage> {
    const rows = await this.schedules.firings(scheduleId, limit, after === undefined ? undefined : decodeFiringCursor(after));
    if (
      rows.length === 0 &&
      after === undefined &&
      !(await this.schedules.get(scheduleId)) &&
      (await this.store.streamVersion(scheduleStreamId(scheduleId))) === 0
    ) {
      throw new ScheduleNotFoundError(scheduleId);
    }
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { firings: await this.firingViews(page), nextCursor: rows.length > limit && last ? encodeFiringCursor(last.position) : null };
  }

  async firing(firingId: string): Promise<FiringView | undefined> {
    const row = await this.schedules.firing(firingId);
    return row ? (await this.firingViews([row]))[0] : undefined;
  }

  /** Firing rows as views, in their order, with their runs' statuses from one query. */
  async firingViews(rows: readonly FiringRow[]): Promise<FiringView[]> {
    const runIds = rows.flatMap((row) => (row.status === 'started' && row.runId ? [row.runId] : []));
    const runs = runIds.length === 0 ? [] : await this.queryBus.execute(new GetRunsById(runIds));
    const statusOf = new Map(runs.map((run) => [run.runId, run.status as RunStatus]));
    return rows.map((row) => firingView(row, row.runId ? (statusOf.get(row.runId) ?? null) : null));
  }
}

/** The next PREVIEW_FIRINGS due times from the first one owed (none while disabled). */
function nextFiringsOf(row: ScheduleRow): string[] {
  if (!row.enabled || row.nextDueAt === null) return [];
  const timing = { cron: row.cron, at: row.at, timeZone: row.timeZone, endsAt: row.endsAt };
  return dueTimesAfter(timing, new Date(Date.parse(row.nextDueAt) - 1), PREVIEW_FIRINGS).map((due) => due.toISOString());
}

const notACursor = (cursor: string) =>
  new InvalidInputError(`after: ${JSON.stringify(cursor)} is not a cursor this API gave out (pass the previous page's nextCursor)`);

/** Opaque to callers: base64url of the last schedule's created time and id. */
export function encodeScheduleCursor(key: ScheduleListKey): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.scheduleId])).toString('base64url');
}

export function decodeScheduleCursor(cursor: string): ScheduleListKey {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { createdAt: parsed[0], scheduleId: parsed[1] };
    }
  } catch {
    // falls through to the 400
  }
  throw notACursor(cursor);
}

/** Opaque to callers: base64url of the last firing's position. */
export const encodeFiringCursor = (position: number): string => Buffer.from(String(position)).toString('base64url');

export function decodeFiringCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (/^[1-9]\d{0,15}$/.test(text)) return Number(text);
  throw notACursor(cursor);
}

import { Injectable } from '@nestjs/common';
import { and, count, eq, inArray, notInArray } from 'drizzle-orm';
import { jsonArrayValues, ReadModelDatabase, type ReadTables } from '../database';

/** A row of the `sessions` read model (the same JavaScript types on both databases). */
export type SessionRow = ReadTables['sessions']['$inferSelect'];

/** A session is over, or already interrupted: nothing of it is held by a CLI. */
const NOT_HELD_STATUSES = ['destroyed', 'failed', 'interrupted'];

/**
 * The `sessions` read model for other contexts (instances' holders, delegation's run recovery,
 * metrics): the sessions context owns the table, everyone else asks here. One statement per call.
 */
@Injectable()
export class SessionsReadModel {
  constructor(private readonly db: ReadModelDatabase) {}

  async find(sessionId: string): Promise<SessionRow | undefined> {
    const { sessions } = this.db.tables;
    const [row] = await this.db.orm.select().from(sessions).where(eq(sessions.sessionId, sessionId)).limit(1);
    return row;
  }

  /** The instance's sessions that are not ended nor interrupted (what a takeover records interrupted). */
  async heldBy(instanceId: string): Promise<SessionRow[]> {
    const { sessions } = this.db.tables;
    return this.db.orm
      .select()
      .from(sessions)
      .where(and(eq(sessions.ownerInstance, instanceId), notInArray(sessions.status, NOT_HELD_STATUSES)));
  }

  /** The recorded holder (`owner_instance`) of each of the sessions that exist among `sessionIds`. */
  async ownersOf(sessionIds: readonly string[]): Promise<Map<string, string | null>> {
    if (sessionIds.length === 0) return new Map();
    const { sessions } = this.db.tables;
    const rows = await this.db.orm
      .select({ sessionId: sessions.sessionId, owner: sessions.ownerInstance })
      .from(sessions)
      .where(inArray(sessions.sessionId, jsonArrayValues(this.db, [...new Set(sessionIds)])));
    return new Map(rows.map((r) => [r.sessionId, r.owner]));
  }

  /** Sessions per status, one GROUP BY (either database; `count()` is a number on both). */
  async countByStatus(): Promise<Array<{ status: string; count: number }>> {
    const { sessions } = this.db.tables;
    return this.db.orm.select({ status: sessions.status, count: count() }).from(sessions).groupBy(sessions.status);
  }
}

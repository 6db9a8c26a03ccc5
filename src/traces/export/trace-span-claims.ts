import { and, asc, count, eq, inArray, isNotNull, isNull, lt, max, min, or, sql } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database';
import type { TraceSpanRow } from './readable-span';

/** Ended spans not sent yet, as /health shows them. */
export interface WaitingSpans {
  waiting: number;
  /** The end time of the span waiting longest (ISO), undefined when none waits. */
  oldestEndTime?: string;
  /** When any instance last stamped a span exported (ISO). */
  lastExportedAt?: string;
}

/**
 * The exporter's side of `trace_spans`: which ended rows are waiting, an instance's claim on a batch
 * of them, and the stamp once the collector took them. A claim (`claimed_by`, `claimed_until`) is taken
 * in one UPDATE that only touches rows no live claim holds, so two instances on one PostgreSQL never
 * send a row at the same time; one that dies mid-export leaves a claim that expires, and the rows go
 * out again (same content: a row is final once ended).
 */
export class TraceSpanClaims {
  constructor(private readonly db: ReadModelDatabase) {}

  /** Up to `limit` waiting rows, oldest ended first, now claimed by `instanceId` until `until`. */
  async claim(instanceId: string, now: Date, until: Date, limit: number): Promise<TraceSpanRow[]> {
    const { traceSpans: t } = this.db.tables;
    const nowIso = now.toISOString();
    const claimable = and(isNull(t.exportedAt), isNotNull(t.endedPosition), isNotNull(t.endTime), or(isNull(t.claimedUntil), lt(t.claimedUntil, nowIso)));
    // Idle most of the time: a read finds nothing to claim without starting a write.
    const [any] = await this.db.orm.select({ spanId: t.spanId }).from(t).where(claimable).limit(1);
    if (!any) return [];
    const candidates = this.db.orm.select({ spanId: t.spanId }).from(t).where(claimable).orderBy(asc(t.endedPosition)).limit(limit);
    // PostgreSQL: rows another instance is claiming this instant are skipped, not waited for, and the
    // pick is an array computed once (`IN (subquery)` may be planned as a join that runs the LIMITed,
    // SKIP LOCKED pick again per row and claims more than the batch). The outer condition, checked
    // again on each row after any concurrent claim committed, keeps a row to one claim.
    const picked =
      this.db.dialect === 'postgres' ? sql`${t.spanId} = any(array(${candidates.for('update', { skipLocked: true })}))` : inArray(t.spanId, candidates);
    const rows = await this.db.orm.update(t).set({ claimedBy: instanceId, claimedUntil: until.toISOString() }).where(and(picked, claimable)).returning();
    return rows.sort((a, b) => (a.endedPosition ?? 0) - (b.endedPosition ?? 0));
  }

  /** The collector took them: final from now on. Stamped whoever claims them now (they went out). */
  async markExported(spanIds: readonly string[], at: Date): Promise<void> {
    if (spanIds.length === 0) return;
    const { traceSpans: t } = this.db.tables;
    await this.db.orm
      .update(t)
      .set({ exportedAt: at.toISOString(), claimedBy: null, claimedUntil: null })
      .where(and(inArray(t.spanId, [...spanIds]), isNull(t.exportedAt)));
  }

  /** An export failed: the rows are free for the next attempt (this instance's or another's). */
  async release(spanIds: readonly string[], instanceId: string): Promise<void> {
    if (spanIds.length === 0) return;
    const { traceSpans: t } = this.db.tables;
    await this.db.orm
      .update(t)
      .set({ claimedBy: null, claimedUntil: null })
      .where(and(inArray(t.spanId, [...spanIds]), eq(t.claimedBy, instanceId), isNull(t.exportedAt)));
  }

  /** A dead instance's claims, whatever their expiry (its lease was taken over): free again. How many. */
  async releaseAllOf(instanceId: string): Promise<number> {
    const { traceSpans: t } = this.db.tables;
    const released = await this.db.orm
      .update(t)
      .set({ claimedBy: null, claimedUntil: null })
      .where(and(eq(t.claimedBy, instanceId), isNull(t.exportedAt)))
      .returning({ spanId: t.spanId });
    return released.length;
  }

  async waiting(): Promise<WaitingSpans> {
    const { traceSpans: t } = this.db.tables;
    const [waiting] = await this.db.orm
      .select({ waiting: count(), oldestEndTime: min(t.endTime) })
      .from(t)
      .where(and(isNull(t.exportedAt), isNotNull(t.endedPosition), isNotNull(t.endTime)));
    const [exported] = await this.db.orm.select({ lastExportedAt: max(t.exportedAt) }).from(t);
    return {
      waiting: Number(waiting?.waiting ?? 0),
      oldestEndTime: waiting?.oldestEndTime ?? undefined,
      lastExportedAt: exported?.lastExportedAt ?? undefined,
    };
  }
}

import { Injectable } from '@nestjs/common';
import { and, count, desc, eq, gte, lt, ne, or } from 'drizzle-orm';
import { runs } from '../database/schema';
import { SqliteDatabase } from '../database/sqlite-database';
import { type RunRow, subtreeRange } from './run-lineage';

/**
 * The delegation engine's reads of the `runs` read model, so run-lineage is its only reader and the
 * arrow runs one way (delegation → run-lineage). Synchronous on purpose: the engine reads between
 * awaits (stop sweeps) and from the sessions' synchronous turn-reminder sources.
 */
@Injectable()
export class RunsReadModel {
  constructor(private readonly database: SqliteDatabase) {}

  /** How many runs are in each status (one GROUP BY; the metrics gauge reads it at scrape). */
  countByStatus(): Array<{ status: string; count: number }> {
    return this.database.orm.select({ status: runs.status, count: count() }).from(runs).groupBy(runs.status).all();
  }

  find(runId: string): RunRow | undefined {
    return this.database.orm.select().from(runs).where(eq(runs.runId, runId)).get();
  }

  /** Ids of the runs under `path` (itself included): one range scan on the path index. */
  subtreeIds(path: string): string[] {
    const { from, to } = subtreeRange(path);
    return this.database.orm
      .select({ runId: runs.runId })
      .from(runs)
      .where(and(gte(runs.path, from), lt(runs.path, to)))
      .all()
      .map((r) => r.runId);
  }

  /** Running runs under `path` (itself included), deepest first: one range scan on the path index. */
  runningSubtreeIds(path: string): string[] {
    const { from, to } = subtreeRange(path);
    return this.database.orm
      .select({ runId: runs.runId })
      .from(runs)
      .where(and(gte(runs.path, from), lt(runs.path, to), eq(runs.status, 'running')))
      .orderBy(desc(runs.depth))
      .all()
      .map((r) => r.runId);
  }

  /** Every run the read model still has as running. */
  runningIds(): string[] {
    return this.database.orm
      .select({ runId: runs.runId })
      .from(runs)
      .where(eq(runs.status, 'running'))
      .all()
      .map((r) => r.runId);
  }

  /** How many runs owned by a thread are running. */
  runningOwnedBy(ownerThreadId: string): number {
    const [row] = this.database.orm
      .select({ n: count() })
      .from(runs)
      .where(and(eq(runs.ownerThreadId, ownerThreadId), eq(runs.status, 'running')))
      .all();
    return row?.n ?? 0;
  }

  /** Runs a thread owns that its agent has not been told about: ended background ones and interrupted ones, oldest end first. */
  unnotifiedEndsOwnedBy(ownerThreadId: string): RunRow[] {
    return this.database.orm
      .select()
      .from(runs)
      .where(
        and(
          eq(runs.ownerThreadId, ownerThreadId),
          eq(runs.ownerNotified, false),
          ne(runs.status, 'running'),
          or(eq(runs.background, true), eq(runs.status, 'interrupted')),
        ),
      )
      .orderBy(runs.endedAt)
      .all();
  }
}

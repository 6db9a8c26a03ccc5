import { Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { runs } from '../database/schema';
import { SqliteDatabase } from '../database/sqlite-database';
import { type RunRow, subtreeRange } from './run-lineage';

/** What a subtree spent so far (a running run counts its current launch's time up to `now`). */
export interface SubtreeSpend {
  runs: number;
  tokens: number;
  toolCalls: number;
  durationMs: number;
}

/**
 * The delegation engine's reads of the `runs` read model, so run-lineage is its only reader and the
 * arrow runs one way (delegation → run-lineage). Synchronous on purpose: the engine reads between
 * awaits (stop sweeps) and from the sessions' synchronous turn-reminder sources.
 */
/** What a budget counts of each run (`spendOf`). */
const SPEND_COLUMNS = {
  status: runs.status,
  inputTokens: runs.inputTokens,
  outputTokens: runs.outputTokens,
  toolCalls: runs.toolCalls,
  durationMs: runs.durationMs,
  launchedAt: runs.launchedAt,
};

@Injectable()
export class RunsReadModel {
  private sessionsWithRunning?: Database.Statement;

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

  /** Usage summed over the runs under `path` (itself included): one range scan on the path index. */
  subtreeSpend(path: string, now = Date.now()): SubtreeSpend {
    const { from, to } = subtreeRange(path);
    const rows = this.database.orm
      .select(SPEND_COLUMNS)
      .from(runs)
      .where(and(gte(runs.path, from), lt(runs.path, to)))
      .all();
    return spendOf(rows, now);
  }

  /** The runs among `ids` that have a budget. */
  budgetedAmong(ids: readonly string[]): RunRow[] {
    if (ids.length === 0) return [];
    return this.database.orm
      .select()
      .from(runs)
      .where(and(inArray(runs.runId, [...ids]), isNotNull(runs.budget)))
      .all();
  }

  /** Running runs that have a budget (the budget guard's periodic sweep, for limits that grow with time). */
  runningBudgeted(): RunRow[] {
    return this.database.orm
      .select()
      .from(runs)
      .where(and(eq(runs.status, 'running'), isNotNull(runs.budget)))
      .all();
  }

  /** Runs a thread owns with budget warnings its agent has not been told about. */
  untoldBudgetWarningsOwnedBy(ownerThreadId: string): RunRow[] {
    return this.database.orm
      .select()
      .from(runs)
      .where(
        and(eq(runs.ownerThreadId, ownerThreadId), isNotNull(runs.budget), sql`json_array_length(${runs.budgetWarnings}) > ${runs.budgetWarningsTold}`),
      )
      .all();
  }

  /**
   * Usage summed over every run a session started (its runs with no parent run) and their subtrees:
   * what a session's budget covers. One statement on the owner and root indexes.
   */
  sessionSpend(sessionId: string, now = Date.now()): SubtreeSpend {
    const rows = this.database.orm
      .select(SPEND_COLUMNS)
      .from(runs)
      .where(
        inArray(
          runs.rootRunId,
          this.database.orm
            .select({ runId: runs.runId })
            .from(runs)
            .where(and(eq(runs.ownerThreadId, sessionId), isNull(runs.parentRunId))),
        ),
      )
      .all();
    return spendOf(rows, now);
  }

  /** Sessions that own a root of some running run: the ones whose budget time can still grow. */
  sessionsWithRunningRuns(): string[] {
    this.sessionsWithRunning ??= this.database.connection.prepare(
      `SELECT DISTINCT root.owner_thread_id AS owner FROM runs AS r JOIN runs AS root ON root.run_id = r.root_run_id
       WHERE r.status = 'running' AND root.parent_run_id IS NULL AND root.owner_thread_id != 'api'`,
    );
    const rows = this.sessionsWithRunning.all() as Array<{ owner: string }>;
    return rows.map((r) => r.owner);
  }

  /** Running runs a session started (no parent run): where a stop of everything it started begins. */
  runningRootsOwnedBy(sessionId: string): string[] {
    return this.database.orm
      .select({ runId: runs.runId })
      .from(runs)
      .where(and(eq(runs.ownerThreadId, sessionId), isNull(runs.parentRunId), eq(runs.status, 'running')))
      .all()
      .map((r) => r.runId);
  }
}

function spendOf(
  rows: ReadonlyArray<Pick<RunRow, 'status' | 'inputTokens' | 'outputTokens' | 'toolCalls' | 'durationMs' | 'launchedAt'>>,
  now: number,
): SubtreeSpend {
  const spend: SubtreeSpend = { runs: 0, tokens: 0, toolCalls: 0, durationMs: 0 };
  for (const row of rows) {
    spend.runs += 1;
    spend.tokens += row.inputTokens + row.outputTokens;
    spend.toolCalls += row.toolCalls;
    spend.durationMs += row.durationMs + (row.status === 'running' ? Math.max(0, now - Date.parse(row.launchedAt)) : 0);
  }
  return spend;
}

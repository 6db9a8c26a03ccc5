import { Injectable } from '@nestjs/common';
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { ReadModelDatabase } from '../database';
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
 * arrow runs one way (delegation → run-lineage). Each read is one awaited statement, on either database;
 * a caller that acts on what it read (stop sweeps, budget checks, reminders) must allow for the row
 * having moved on meanwhile, as the event streams' own checks do (the decider refuses a stale act).
 */
@Injectable()
export class RunsReadModel {
  constructor(private readonly db: ReadModelDatabase) {}

  private get runs() {
    return this.db.tables.runs;
  }

  /** What a budget counts of each run (`spendOf`). */
  private get spendColumns() {
    const { runs } = this;
    return {
      status: runs.status,
      inputTokens: runs.inputTokens,
      outputTokens: runs.outputTokens,
      toolCalls: runs.toolCalls,
      durationMs: runs.durationMs,
      launchedAt: runs.launchedAt,
    };
  }

  /** How many runs are in each status (one GROUP BY; the metrics gauge reads it at scrape). */
  async countByStatus(): Promise<Array<{ status: string; count: number }>> {
    const { runs } = this;
    return this.db.orm.select({ status: runs.status, count: count() }).from(runs).groupBy(runs.status);
  }

  async find(runId: string): Promise<RunRow | undefined> {
    const { runs } = this;
    const [row] = await this.db.orm.select().from(runs).where(eq(runs.runId, runId)).limit(1);
    return row;
  }

  /** issue 26: the runs that replay or fork `runId` (roots and mapped children), oldest first. */
  async replaysOf(runId: string): Promise<RunRow[]> {
    const { runs } = this;
    return this.db.orm.select().from(runs).where(eq(runs.replayOf, runId)).orderBy(runs.startedAt, runs.runId);
  }

  /** issue 26: the child runs of `parentRunId` that ran `agentId`, in the order they started (a replay maps children by ordinal). */
  async childrenOfAgent(parentRunId: string, agentId: string): Promise<string[]> {
    const { runs } = this;
    const rows = await this.db.orm
      .select({ runId: runs.runId })
      .from(runs)
      .where(and(eq(runs.parentRunId, parentRunId), eq(runs.agentId, agentId)))
      .orderBy(runs.startedAt, runs.runId);
    return rows.map((r) => r.runId);
  }

  /** Ids of the runs under `path` (itself included): one range scan on the path index. */
  async subtreeIds(path: string): Promise<string[]> {
    const { runs } = this;
    const { from, to } = subtreeRange(path);
    const rows = await this.db.orm
      .select({ runId: runs.runId })
      .from(runs)
      .where(and(gte(runs.path, from), lt(runs.path, to)));
    return rows.map((r) => r.runId);
  }

  /**
   * Running runs under `path` (itself included), deepest first: a range of the path index, or (SQLite's
   * pick without statistics) the status index's running runs filtered by the range.
   */
  async runningSubtreeIds(path: string): Promise<string[]> {
    const { runs } = this;
    const { from, to } = subtreeRange(path);
    const rows = await this.db.orm
      .select({ runId: runs.runId })
      .from(runs)
      .where(and(gte(runs.path, from), lt(runs.path, to), eq(runs.status, 'running')))
      .orderBy(desc(runs.depth));
    return rows.map((r) => r.runId);
  }

  /** Every run the read model still has as running. */
  async runningIds(): Promise<string[]> {
    const { runs } = this;
    const rows = await this.db.orm.select({ runId: runs.runId }).from(runs).where(eq(runs.status, 'running'));
    return rows.map((r) => r.runId);
  }

  /** Every running run with its thread (`sub-agent-<runId>`, its session once launched) and launch time. */
  async runningWithThreads(): Promise<Array<Pick<RunRow, 'runId' | 'threadId' | 'launchedAt' | 'remote'>>> {
    const { runs } = this;
    return this.db.orm
      .select({ runId: runs.runId, threadId: runs.threadId, launchedAt: runs.launchedAt, remote: runs.remote })
      .from(runs)
      .where(eq(runs.status, 'running'));
  }

  /** How many runs owned by a thread are running. */
  async runningOwnedBy(ownerThreadId: string): Promise<number> {
    const { runs } = this;
    const [row] = await this.db.orm
      .select({ n: count() })
      .from(runs)
      .where(and(eq(runs.ownerThreadId, ownerThreadId), eq(runs.status, 'running')));
    return row?.n ?? 0;
  }

  /** Running runs a thread owns that it started in the foreground (`background: false`): its turn waits on them. */
  async runningForegroundOwnedBy(ownerThreadId: string): Promise<string[]> {
    const { runs } = this;
    const rows = await this.db.orm
      .select({ runId: runs.runId })
      .from(runs)
      .where(and(eq(runs.ownerThreadId, ownerThreadId), eq(runs.status, 'running'), eq(runs.background, false)));
    return rows.map((r) => r.runId);
  }

  /** Runs a thread owns that its agent has not been told about: ended background ones and interrupted ones, oldest end first. */
  async unnotifiedEndsOwnedBy(ownerThreadId: string): Promise<RunRow[]> {
    const { runs } = this;
    return this.db.orm
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
      .orderBy(runs.endedAt);
  }

  /** Usage summed over the runs under `path` (itself included): one range scan on the path index. */
  async subtreeSpend(path: string, now = Date.now()): Promise<SubtreeSpend> {
    const { runs } = this;
    const { from, to } = subtreeRange(path);
    const rows = await this.db.orm
      .select(this.spendColumns)
      .from(runs)
      .where(and(gte(runs.path, from), lt(runs.path, to)));
    return spendOf(rows, now);
  }

  /** The last launch of each run under `path` (itself included): what a pause may have held of its time. */
  async subtreeLaunches(path: string): Promise<Array<Pick<RunRow, 'threadId' | 'status' | 'launchedAt' | 'endedAt'>>> {
    const { runs } = this;
    const { from, to } = subtreeRange(path);
    return this.db.orm
      .select({ threadId: runs.threadId, status: runs.status, launchedAt: runs.launchedAt, endedAt: runs.endedAt })
      .from(runs)
      .where(and(gte(runs.path, from), lt(runs.path, to)));
  }

  /** The runs among `ids` that have a budget. */
  async budgetedAmong(ids: readonly string[]): Promise<RunRow[]> {
    if (ids.length === 0) return [];
    const { runs } = this;
    return this.db.orm
      .select()
      .from(runs)
      .where(and(inArray(runs.runId, [...ids]), isNotNull(runs.budget)));
  }

  /** Running runs that have a budget (the budget guard's periodic sweep, for limits that grow with time). */
  async runningBudgeted(): Promise<RunRow[]> {
    const { runs } = this;
    return this.db.orm
      .select()
      .from(runs)
      .where(and(eq(runs.status, 'running'), isNotNull(runs.budget)));
  }

  /** Runs a thread owns with budget warnings its agent has not been told about. */
  async untoldBudgetWarningsOwnedBy(ownerThreadId: string): Promise<RunRow[]> {
    const { runs } = this;
    // budget_warnings is JSON text on both databases.
    const warnings =
      this.db.dialect === 'sqlite' ? sql`json_array_length(${runs.budgetWarnings})` : sql`jsonb_array_length(${runs.budgetWarnings}::jsonb)`;
    return this.db.orm
      .select()
      .from(runs)
      .where(and(eq(runs.ownerThreadId, ownerThreadId), isNotNull(runs.budget), sql`${warnings} > ${runs.budgetWarningsTold}`));
  }

  /**
   * Usage summed over every run a session started (its runs with no parent run) and their subtrees:
   * what a session's budget covers. One statement on the owner and root indexes.
   */
  async sessionSpend(sessionId: string, now = Date.now()): Promise<SubtreeSpend> {
    const { runs } = this;
    const rows = await this.db.orm
      .select(this.spendColumns)
      .from(runs)
      .where(
        inArray(
          runs.rootRunId,
          this.db.orm
            .select({ runId: runs.runId })
            .from(runs)
            .where(and(eq(runs.ownerThreadId, sessionId), isNull(runs.parentRunId))),
        ),
      );
    return spendOf(rows, now);
  }

  /** Paths of the root runs a session started (any status): its budget's subtrees. */
  async rootPathsOwnedBy(sessionId: string): Promise<string[]> {
    const { runs } = this;
    const rows = await this.db.orm
      .select({ path: runs.path })
      .from(runs)
      .where(and(eq(runs.ownerThreadId, sessionId), isNull(runs.parentRunId)));
    return rows.map((r) => r.path);
  }

  /** Sessions that own a root of some running run: the ones whose budget time can still grow. */
  async sessionsWithRunningRuns(): Promise<string[]> {
    const { runs } = this;
    const rows = await this.db.orm
      .selectDistinct({ owner: runs.ownerThreadId })
      .from(runs)
      .where(
        and(
          isNull(runs.parentRunId),
          ne(runs.ownerThreadId, 'api'),
          inArray(runs.runId, this.db.orm.select({ rootRunId: runs.rootRunId }).from(runs).where(eq(runs.status, 'running'))),
        ),
      );
    return rows.map((r) => r.owner);
  }

  /** Running runs a session started (no parent run): where a stop of everything it started begins. */
  async runningRootsOwnedBy(sessionId: string): Promise<string[]> {
    const { runs } = this;
    const rows = await this.db.orm
      .select({ runId: runs.runId })
      .from(runs)
      .where(and(eq(runs.ownerThreadId, sessionId), isNull(runs.parentRunId), eq(runs.status, 'running')));
    return rows.map((r) => r.runId);
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

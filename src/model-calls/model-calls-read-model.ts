import { Injectable } from '@nestjs/common';
import { and, asc, eq, gte, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import { jsonArrayRows, jsonArrayValues, tableIndexedBy } from '../database/keyed-batch';
import { ReadModelDatabase } from '../database/read-model-database';
import { subtreeRange } from '../run-lineage/run-lineage';

/** A `model_calls` row as the read side sees it. */
export type ModelCallRow = ReadModelDatabase['tables']['modelCalls']['$inferSelect'];

/** Tokens and cost summed over some calls; `unpricedCalls` counts those whose cost is unknown. */
export interface ModelCallSpend {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  unpricedCalls: number;
}

/**
 * The read port of `model_calls` (owned here): lists for a session or a run (its subtree being one range
 * of `run_path`), one call, the calls left in flight, and spend sums. Keyset pages by `started_position`.
 */
@Injectable()
export class ModelCallsReadModel {
  constructor(private readonly db: ReadModelDatabase) {}

  async find(callId: string): Promise<ModelCallRow | undefined> {
    const { modelCalls } = this.db.tables;
    const [row] = await this.db.orm.select().from(modelCalls).where(eq(modelCalls.callId, callId)).limit(1);
    return row;
  }

  /** A session's calls (its own agent's and its CLI sub-agents'), oldest first, after the cursor. */
  async ofSession(sessionId: string, after: number | undefined, limit: number): Promise<ModelCallRow[]> {
    const { modelCalls } = this.db.tables;
    return this.db.orm
      .select()
      .from(modelCalls)
      .where(and(eq(modelCalls.sessionId, sessionId), after !== undefined ? gte(modelCalls.startedPosition, after + 1) : undefined))
      .orderBy(asc(modelCalls.startedPosition))
      .limit(limit);
  }

  /** A run's calls, or with `runPath` those of every run in its subtree, oldest first, after the cursor. */
  async ofRun(runId: string, runPath: string | undefined, after: number | undefined, limit: number): Promise<ModelCallRow[]> {
    const { modelCalls } = this.db.tables;
    const range = runPath ? subtreeRange(runPath) : undefined;
    return this.db.orm
      .select()
      .from(modelCalls)
      .where(
        and(
          range ? and(gte(modelCalls.runPath, range.from), lt(modelCalls.runPath, range.to)) : eq(modelCalls.runId, runId),
          after !== undefined ? gte(modelCalls.startedPosition, after + 1) : undefined,
        ),
      )
      .orderBy(asc(modelCalls.startedPosition))
      .limit(limit);
  }

  /** Spend of a run's subtree (one range of `run_path`) or of a single run. */
  async spendOfRuns(runPath: string): Promise<ModelCallSpend> {
    const { modelCalls } = this.db.tables;
    const range = subtreeRange(runPath);
    return this.spendWhere(and(gte(modelCalls.runPath, range.from), lt(modelCalls.runPath, range.to)));
  }

  /** Spend of one run's own calls (its CLI sub-agents' included), not its child runs'. */
  async spendOfRun(runId: string): Promise<ModelCallSpend> {
    return this.spendWhere(eq(this.db.tables.modelCalls.runId, runId));
  }

  /** Spends of many runs' own calls in one statement, in the order of `runIds`. */
  async spendOfEachRun(runIds: readonly string[]): Promise<ModelCallSpend[]> {
    if (runIds.length === 0) return [];
    const { modelCalls } = this.db.tables;
    const rows = await this.db.orm
      .select({ key: modelCalls.runId, ...this.spendColumns() })
      .from(modelCalls)
      .where(and(inArray(modelCalls.runId, jsonArrayValues(this.db, [...new Set(runIds)])), this.spentStatus()))
      .groupBy(modelCalls.runId);
    const byKey = new Map(rows.map(({ key, ...spend }) => [key, spendOf(spend)]));
    return runIds.map((id) => byKey.get(id) ?? spendOf(undefined));
  }

  /** Spends of many subtrees in one statement (each path one range of `run_path`), in the order of `paths`. */
  async spendOfEachSubtree(paths: readonly string[]): Promise<ModelCallSpend[]> {
    if (paths.length === 0) return [];
    const { modelCalls } = this.db.tables;
    const path = sql<string>`p.value`;
    const rows = await this.db.orm
      .select({ key: path, ...this.spendColumns() })
      .from(jsonArrayRows(this.db, [...new Set(paths)], 'p'))
      .crossJoin(tableIndexedBy(this.db, modelCalls, 'model_calls_run_path_idx'))
      .where(and(gte(modelCalls.runPath, path), lt(modelCalls.runPath, sql`${path} || '~'`), this.spentStatus()))
      .groupBy(path);
    const byKey = new Map(rows.map(({ key, ...spend }) => [key, spendOf(spend)]));
    return paths.map((p) => byKey.get(p) ?? spendOf(undefined));
  }

  async spendOfSession(sessionId: string): Promise<ModelCallSpend> {
    return this.spendWhere(eq(this.db.tables.modelCalls.sessionId, sessionId));
  }

  /** Calls recorded in flight by these instances (a dead one's, taken over). */
  async inFlightOf(instanceIds: readonly string[]): Promise<string[]> {
    if (instanceIds.length === 0) return [];
    const { modelCalls } = this.db.tables;
    const rows = await this.db.orm
      .select({ callId: modelCalls.callId })
      .from(modelCalls)
      .where(and(eq(modelCalls.status, 'in_flight'), inArray(modelCalls.instanceId, [...instanceIds])));
    return rows.map((r) => r.callId);
  }

  /** Calls recorded in flight by any instance but these (the live ones): nobody will answer them. */
  async inFlightNotOf(instanceIds: readonly string[]): Promise<string[]> {
    const { modelCalls } = this.db.tables;
    const rows = await this.db.orm
      .select({ callId: modelCalls.callId })
      .from(modelCalls)
      .where(and(eq(modelCalls.status, 'in_flight'), instanceIds.length > 0 ? notInArray(modelCalls.instanceId, [...instanceIds]) : undefined));
    return rows.map((r) => r.callId);
  }

  private async spendWhere(where: ReturnType<typeof and>): Promise<ModelCallSpend> {
    const { modelCalls } = this.db.tables;
    const [row] = await this.db.orm.select(this.spendColumns()).from(modelCalls).where(and(where, this.spentStatus()));
    return spendOf(row);
  }

  private spendColumns() {
    const { modelCalls } = this.db.tables;
    return {
      calls: sql<number>`count(*)`,
      inputTokens: sql<number>`coalesce(sum(${modelCalls.inputTokens}), 0)`,
      outputTokens: sql<number>`coalesce(sum(${modelCalls.outputTokens}), 0)`,
      cost: sql<number>`coalesce(sum(${modelCalls.cost}), 0)`,
      unpricedCalls: sql<number>`count(*) - count(${modelCalls.cost})`,
    };
  }

  /** Calls that were sent and ended: in flight, refused and interrupted ones spent nothing known. */
  private spentStatus() {
    const { modelCalls } = this.db.tables;
    return or(eq(modelCalls.status, 'succeeded'), eq(modelCalls.status, 'failed'), eq(modelCalls.status, 'cancelled'));
  }
}

/** Sums come back as numeric text on PostgreSQL: numbers on both. */
function spendOf(row: { calls: unknown; inputTokens: unknown; outputTokens: unknown; cost: unknown; unpricedCalls: unknown } | undefined): ModelCallSpend {
  return {
    calls: Number(row?.calls ?? 0),
    inputTokens: Number(row?.inputTokens ?? 0),
    outputTokens: Number(row?.outputTokens ?? 0),
    cost: Number(row?.cost ?? 0),
    unpricedCalls: Number(row?.unpricedCalls ?? 0),
  };
}

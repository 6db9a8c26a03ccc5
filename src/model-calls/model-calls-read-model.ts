import { Injectable } from '@nestjs/common';
import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, ne, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { jsonArrayRows, jsonArrayValues, type KeyField, KeyedReadBatch, tableIndexedBy, ReadModelDatabase, type ReadTables } from '../database';
import type { ReplayDivergence } from './model-call.events';

/** A `model_calls` row as the read side sees it. */
export type ModelCallRow = ReadModelDatabase['tables']['modelCalls']['$inferSelect'];

/**
 * Tokens and cost of some calls as the read APIs show them: `cost` sums the calls with a known cost, null
 * when none of them has one (unknown, never 0); `unpricedCalls` says how many calls of unknown cost the sum
 * leaves out (`costOf` decides which: an unpriced model, or usage the provider did not report).
 */
export interface ModelCallSpendView {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
  currency: string | null;
  unpricedCalls: number;
}

/** Whose calls a spend sums: a session's, a run's own, or a run's whole subtree (one range of `run_path`). */
export type SpendKey = { sessionId: string } | { runId: string } | { runPath: string };

/** One page of a run's calls (or its subtree's) for a batch read: `after` is a started position. */
export interface RunCallsKey {
  runId: string;
  /** Set: the whole subtree under this path; unset: the run's own calls. */
  subtreePath?: string;
  after?: number;
}

/** issue 26: a recorded call a replay can answer from: one that finished with an answer (status below 400). */
export interface RecordedCall {
  callId: string;
  agentName: string;
  startedAt: string;
  startedPosition: number;
}

/** issue 26: the first call of a replay or fork tree whose request differed from its original's. */
export interface ReplayDivergenceView {
  callId: string;
  sessionId: string;
  runId: string | null;
  agentName: string;
  lineagePath: string[];
  /** 1-based position of the call among its agent's calls in its session. */
  position: number | null;
  originalCallId: string | null;
  divergence: ReplayDivergence;
  /** The replay stopped there (`on_divergence: stop`: the call was refused) rather than going on live. */
  stopped: boolean;
  startedAt: string;
}

/** A spend with no calls in it. */
const NO_SPEND: ModelCallSpendView = { calls: 0, inputTokens: 0, outputTokens: 0, cost: 0, currency: null, unpricedCalls: 0 };

/**
 * The read port of `model_calls` (owned here): lists for a session or a run (its subtree being one range
 * of `run_path`), one call, the calls left in flight, and spend sums. Keyset pages by `started_position`.
 */
@Injectable()
export class ModelCallsReadModel {
  private readonly ownCalls: KeyedReadBatch<RunCallsKey, ReadTables['modelCalls']>;
  private readonly subtreeCalls: KeyedReadBatch<RunCallsKey, ReadTables['modelCalls']>;

  constructor(private readonly db: ReadModelDatabase) {
    const { modelCalls } = db.tables;
    const after = (key: KeyField) => gt(modelCalls.startedPosition, sql`CAST(${key('after')} AS BIGINT)`);
    const fieldsOf = (key: RunCallsKey) => ({ runId: key.runId, path: key.subtreePath ?? '', after: key.after ?? 0 });
    this.ownCalls = new KeyedReadBatch(db, {
      table: modelCalls,
      fieldsOf,
      where: (key) => and(eq(modelCalls.runId, key('runId')), after(key)),
      orderBy: modelCalls.startedPosition,
    });
    this.subtreeCalls = new KeyedReadBatch(db, {
      table: modelCalls,
      fieldsOf,
      where: (key) => and(gte(modelCalls.runPath, key('path')), lt(modelCalls.runPath, sql`${key('path')} || '~'`), after(key)),
      orderBy: modelCalls.startedPosition,
    });
  }

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

  /**
   * issue 26: the calls a replay of this session is answered from, oldest first: those that finished with an
   * answer (a retried attempt the provider refused is not a step of the conversation).
   */
  async recordedCallsOf(sessionId: string): Promise<RecordedCall[]> {
    const { modelCalls } = this.db.tables;
    return this.db.orm
      .select({ callId: modelCalls.callId, agentName: modelCalls.agentName, startedAt: modelCalls.startedAt, startedPosition: modelCalls.startedPosition })
      .from(modelCalls)
      .where(and(eq(modelCalls.sessionId, sessionId), eq(modelCalls.status, 'succeeded')))
      .orderBy(asc(modelCalls.startedPosition));
  }

  /** issue 42: the calls of these sessions that gave these answers (`responseId`): by `<sessionId>\n<responseId>`. */
  async callIdsByAnswer(sessionIds: readonly string[], responseIds: readonly string[]): Promise<Map<string, string>> {
    if (sessionIds.length === 0 || responseIds.length === 0) return new Map();
    const { modelCalls } = this.db.tables;
    const rows = await this.db.orm
      .select({ callId: modelCalls.callId, sessionId: modelCalls.sessionId, responseId: modelCalls.responseId })
      .from(modelCalls)
      .where(and(inArray(modelCalls.sessionId, [...sessionIds]), inArray(modelCalls.responseId, [...responseIds])));
    return new Map(rows.map((row) => [`${row.sessionId}\n${row.responseId}`, row.callId]));
  }

  /** issue 42: the answer ids (`responseId`) of a run subtree's calls that started before global position `position`. */
  async answerIdsBefore(position: number, runPath: string): Promise<string[]> {
    const { modelCalls } = this.db.tables;
    const rows = await this.db.orm
      .select({ responseId: modelCalls.responseId })
      .from(modelCalls)
      .where(
        and(
          gte(modelCalls.runPath, runPath),
          lt(modelCalls.runPath, sql`${runPath} || '~'`),
          lt(modelCalls.startedPosition, position),
          isNotNull(modelCalls.responseId),
        ),
      );
    return rows.flatMap((row) => (row.responseId ? [row.responseId] : []));
  }

  /** issue 26: a replay session's own calls so far (after a restart: where it had got to), oldest first. */
  async replayedCallsOf(sessionId: string): Promise<{ agentName: string; position: number; source: string }[]> {
    const { modelCalls } = this.db.tables;
    const rows = await this.db.orm
      .select({ agentName: modelCalls.agentName, position: modelCalls.replayPosition, source: modelCalls.replaySource })
      .from(modelCalls)
      .where(and(eq(modelCalls.sessionId, sessionId), isNotNull(modelCalls.replaySource)))
      .orderBy(asc(modelCalls.startedPosition));
    return rows.flatMap((r) => (r.position !== null && r.source !== null ? [{ agentName: r.agentName, position: r.position, source: r.source }] : []));
  }

  /** issue 26: the first divergence recorded in a replay or fork tree (its root run's path), oldest first; undefined when it played back as recorded. */
  async firstDivergenceOf(runPath: string): Promise<ReplayDivergenceView | undefined> {
    const { modelCalls } = this.db.tables;
    const [row] = await this.db.orm
      .select()
      .from(modelCalls)
      .where(and(gte(modelCalls.runPath, runPath), lt(modelCalls.runPath, sql`${runPath} || '~'`), isNotNull(modelCalls.divergence)))
      .orderBy(asc(modelCalls.startedPosition))
      .limit(1);
    if (!row?.divergence) return undefined;
    return {
      callId: row.callId,
      sessionId: row.sessionId,
      runId: row.runId,
      agentName: row.agentName,
      lineagePath: JSON.parse(row.lineagePath) as string[],
      position: row.replayPosition,
      originalCallId: row.originalCallId,
      divergence: JSON.parse(row.divergence) as ReplayDivergence,
      stopped: row.status === 'refused',
      startedAt: row.startedAt,
    };
  }

  /**
   * issue 26: why a run's tree (its path) cannot be replayed or forked, in words that say what to change;
   * undefined when it can. A replay answers from recorded bodies: it needs calls, kept whole.
   */
  async replayableProblem(runPath: string): Promise<string | undefined> {
    const { modelCalls } = this.db.tables;
    const subtree = and(gte(modelCalls.runPath, runPath), lt(modelCalls.runPath, sql`${runPath} || '~'`), eq(modelCalls.status, 'succeeded'));
    const [counts] = await this.db.orm
      .select({
        calls: sql<number>`count(*)`.mapWith(Number),
        notKept: sql<number>`sum(case when ${modelCalls.bodies} = 'none' then 1 else 0 end)`.mapWith(Number),
        truncated: sql<number>`sum(case when ${modelCalls.bodies} = 'truncated' then 1 else 0 end)`.mapWith(Number),
      })
      .from(modelCalls)
      .where(subtree);
    const calls = counts?.calls ?? 0;
    if (calls === 0) {
      return 'the run has no recorded model call to play back: model calls are recorded when the Copilot CLI hands them to Switchboard (SWITCHBOARD_MODEL_ROUTE on)';
    }
    if ((counts?.notKept ?? 0) > 0) {
      return `${counts.notKept} of the run's ${calls} model calls were recorded without their request and answer (SWITCHBOARD_MODEL_CONTENT=metadata): a replay needs SWITCHBOARD_MODEL_CONTENT=full when the run is made`;
    }
    if ((counts?.truncated ?? 0) > 0) {
      return `${counts.truncated} of the run's ${calls} model calls were kept cut at SWITCHBOARD_MODEL_CONTENT_MAX_BYTES: a replay needs whole answers (raise the limit for the runs to replay)`;
    }
    return undefined;
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

  /**
   * Pages of several runs' calls (own or subtree) in one statement per kind, oldest first, each key after
   * its own cursor: the GraphQL loaders read a whole level of a run tree at once.
   */
  async ofRuns(keys: readonly RunCallsKey[], limit: number): Promise<ModelCallRow[][]> {
    const own = keys.flatMap((key, i) => (key.subtreePath === undefined ? [{ key, i }] : []));
    const subtree = keys.flatMap((key, i) => (key.subtreePath !== undefined ? [{ key, i }] : []));
    const [ownRows, subtreeRows] = await Promise.all([
      this.ownCalls.run(
        own.map((o) => o.key),
        limit,
      ),
      this.subtreeCalls.run(
        subtree.map((o) => o.key),
        limit,
      ),
    ]);
    const pages: ModelCallRow[][] = keys.map(() => []);
    own.forEach(({ i }, j) => (pages[i] = ownRows[j]));
    subtree.forEach(({ i }, j) => (pages[i] = subtreeRows[j]));
    return pages.map((rows) => rows.sort((a, b) => a.startedPosition - b.startedPosition));
  }

  /** Spend of each key (session, run, or subtree), in key order: one statement per kind of key. */
  async spendOf(keys: readonly SpendKey[]): Promise<ModelCallSpendView[]> {
    const { modelCalls } = this.db.tables;
    const sessions = [...new Set(keys.flatMap((k) => ('sessionId' in k ? [k.sessionId] : [])))];
    const runs = [...new Set(keys.flatMap((k) => ('runId' in k ? [k.runId] : [])))];
    const paths = [...new Set(keys.flatMap((k) => ('runPath' in k ? [k.runPath] : [])))];
    const [bySession, byRun, byPath] = await Promise.all([
      this.spendGrouped(modelCalls.sessionId, sessions),
      this.spendGrouped(modelCalls.runId, runs),
      this.spendOfSubtrees(paths),
    ]);
    return keys.map((k) => ('sessionId' in k ? bySession.get(k.sessionId) : 'runId' in k ? byRun.get(k.runId) : byPath.get(k.runPath)) ?? NO_SPEND);
  }

  /** The sums every spend reads, over the calls that ended with an answer or an error (in flight and refused ones spent nothing known). */
  private spendColumns() {
    const { modelCalls } = this.db.tables;
    return {
      calls: sql<number>`count(*)`.mapWith(Number),
      inputTokens: sql<number>`coalesce(sum(${modelCalls.inputTokens}), 0)`.mapWith(Number),
      outputTokens: sql<number>`coalesce(sum(${modelCalls.outputTokens}), 0)`.mapWith(Number),
      pricedCalls: sql<number>`count(${modelCalls.cost})`.mapWith(Number),
      cost: sql<number | null>`sum(${modelCalls.cost})`.mapWith((v: unknown) => (v === null ? null : Number(v))),
      currency: sql<string | null>`max(${modelCalls.currency})`,
      // Every ended call without a cost, tokens reported or not: a stop's cancelled calls of an unpriced model are unknown, not 0.
      unpricedCalls: sql<number>`sum(case when ${isNull(modelCalls.cost)} then 1 else 0 end)`.mapWith(Number),
    };
  }

  private spent(): SQL | undefined {
    const { modelCalls } = this.db.tables;
    // issue 26: a replay's played-back call shows its recorded tokens, but nothing was spent on it.
    const notPlayedBack = or(isNull(modelCalls.replaySource), ne(modelCalls.replaySource, 'record'));
    return and(inArray(modelCalls.status, ['succeeded', 'failed', 'cancelled']), notPlayedBack);
  }

  private async spendGrouped(column: PgColumn, ids: readonly string[]): Promise<Map<string, ModelCallSpendView>> {
    if (ids.length === 0) return new Map();
    const { modelCalls } = this.db.tables;
    const rows = await this.db.orm
      .select({ key: sql<string>`${column}`, ...this.spendColumns() })
      .from(modelCalls)
      .where(and(inArray(column, jsonArrayValues(this.db, ids)), this.spent()))
      .groupBy(column);
    return new Map(rows.map(({ key, ...sums }) => [key, spendView(sums)]));
  }

  private async spendOfSubtrees(paths: readonly string[]): Promise<Map<string, ModelCallSpendView>> {
    if (paths.length === 0) return new Map();
    const { modelCalls } = this.db.tables;
    const path = sql<string>`p.value`;
    // Any number of subtrees in one statement: each path is one range scan of model_calls_run_path_idx.
    const rows = await this.db.orm
      .select({ key: path, ...this.spendColumns() })
      .from(jsonArrayRows(this.db, paths, 'p'))
      .crossJoin(tableIndexedBy(this.db, modelCalls, 'model_calls_run_path_idx'))
      .where(and(gte(modelCalls.runPath, path), lt(modelCalls.runPath, sql`${path} || '~'`), this.spent()))
      .groupBy(path);
    return new Map(rows.map(({ key, ...sums }) => [key, spendView(sums)]));
  }
}

function spendView(sums: {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  pricedCalls: number;
  cost: number | null;
  currency: string | null;
  unpricedCalls: number;
}): ModelCallSpendView {
  const { pricedCalls, cost, ...rest } = sums;
  // Rounded as each call's cost is: a sum of millionths stays free of float noise.
  const amount = cost === null ? null : Math.round(cost * 1_000_000) / 1_000_000;
  return { ...rest, cost: pricedCalls > 0 ? amount : rest.unpricedCalls > 0 ? null : 0, currency: pricedCalls > 0 ? rest.currency : null };
}

import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { EventStore, type StoredEvent } from '../event-store';
import { type ModelCallLineage, ModelCallEvents, ModelCallsReadModel, readModelCallEvent, type ModelCost, type ModelUsage } from '../model-calls';
import { RunsReadModel } from '../run-lineage';
import { SessionRegistry } from '../sessions';
import { budgetOf } from './budget-guard';
import { runUsageOf } from './projections/run-usage';
import { API_THREAD, readRunEvent, RunEvents } from './run.events';
import type { CoveringBudget, RunBudget } from './run-budget';
import {
  idsOnPath,
  NOTHING_SPENT,
  runCovers,
  runSpendKey,
  sessionCovers,
  sessionSpendKey,
  type SpendPlace,
  SpendTally,
  type TalliedSpend,
} from './spend-tally';

/** Runs and calls kept in memory at most: one forgotten is read again (a run) or counted from its end (a call). */
const KEPT = 10_000;

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (!map.has(key) && map.size >= KEPT) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

const tokensOf = (usage: { inputTokens?: unknown; outputTokens?: unknown } | null | undefined): number =>
  (typeof usage?.inputTokens === 'number' ? usage.inputTokens : 0) + (typeof usage?.outputTokens === 'number' ? usage.outputTokens : 0);
const amountOf = (cost: { amount?: unknown } | undefined): number => (typeof cost?.amount === 'number' ? cost.amount : 0);

/**
 * issue 41: the budgets over a model call with what they spent, from memory (`SpendTally`), so the
 * budget gate decides without touching the store: which runs are budgeted and where they sit come from
 * `run.started` as it commits, each budget's spend from the calls' ends (this instance's before the
 * answer's end reaches the CLI, others' as committed) and the CLI's usage events. A run, a tree's owner
 * or a budget not seen yet (started before this process) is read once, then kept right by the events.
 */
@Injectable()
export class BudgetSpend implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(BudgetSpend.name);
  private readonly tally = new SpendTally();
  /** Per run seen: its budget (null: none) and path. */
  private readonly runs = new Map<string, { budget: RunBudget | null; path?: string }>();
  /** Per root run: the session that started it. */
  private readonly owners = new Map<string, string>();
  /** Per call in flight under a run: where it counts, and whether it is a played-back one (spends nothing). */
  private readonly calls = new Map<string, { place: Omit<SpendPlace, 'treeOwner'>; rootRunId?: string; playedBack: boolean }>();
  private readonly loading = new Map<string, Promise<void>>();
  private subscription?: Subscription;

  constructor(
    private readonly store: EventStore,
    private readonly runsRead: RunsReadModel,
    private readonly callsRead: ModelCallsReadModel,
    private readonly sessions: SessionRegistry,
  ) {}

  onModuleInit(): void {
    this.subscription = this.store.committed$.subscribe((event) => this.onCommitted(event));
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  /**
   * The budgets over a call of run `runId` at `runPath`: the session's over its tree first (when any
   * live session has a budget), then each budgeted run from the root down, each with its tokens and
   * cost so far. Answered from memory; a run or budget not seen yet is read once.
   */
  async covering(call: { runId: string; runPath: string; rootRunId?: string }, anySessionBudget: boolean): Promise<CoveringBudget[]> {
    const ids = idsOnPath(call.runPath);
    const unknown = ids.filter((id) => !this.runs.has(id));
    if (unknown.length > 0) await this.learnRuns(unknown, ids);
    const owner = anySessionBudget ? await this.ownerOf(call.rootRunId ?? ids[0] ?? call.runId) : undefined;
    const budgets: Array<Omit<CoveringBudget, 'used'> & { key: string; covers: (place: SpendPlace) => boolean; path?: string }> = [];
    const sessionBudget = owner && owner !== API_THREAD ? this.sessions.get(owner)?.config.budget : undefined;
    if (owner && sessionBudget) budgets.push({ key: sessionSpendKey(owner), sessionId: owner, budget: sessionBudget, covers: sessionCovers(owner) });
    for (const id of ids) {
      const run = this.runs.get(id);
      if (run?.budget && run.path) budgets.push({ key: runSpendKey(id), runId: id, budget: run.budget, covers: runCovers(run.path), path: run.path });
    }
    const missing = budgets.filter((b) => !this.tally.has(b.key) || this.loading.has(b.key));
    if (missing.length > 0) await Promise.all(missing.map((b) => this.load(b.key, b.covers, b.sessionId, b.path)));
    return budgets.map(({ runId, sessionId, budget, key }) => {
      const used = this.tally.used(key) ?? { tokens: 0, cost: 0 };
      return {
        ...(runId ? { runId } : {}),
        ...(sessionId ? { sessionId } : {}),
        budget,
        used: { tokens: used.tokens, cost: used.cost, tool_calls: 0, runs: 0, duration_ms: 0 },
      };
    });
  }

  /** A call of this instance ended, spending `usage` (null: nothing known) at `cost`: counted at once. */
  callSpent(call: ModelCallLineage, callId: string, usage: ModelUsage | null, cost: ModelCost | undefined): void {
    if (!call.runPath) return;
    this.tally.callSpent(this.placeOf(call.runPath, call.rootRunId), callId, tokensOf(usage), amountOf(cost));
  }

  private placeOf(runPath: string, rootRunId: string | undefined): SpendPlace {
    const owner = this.owners.get(rootRunId ?? idsOnPath(runPath)[0] ?? '');
    return { runPath, ...(owner ? { treeOwner: owner } : {}) };
  }

  private onCommitted(event: StoredEvent): void {
    const run = readRunEvent(event);
    if (run?.type === RunEvents.started) {
      const { runId, path, budget, parentRunId, ownerThreadId } = run.data;
      if (typeof runId !== 'string' || typeof path !== 'string') return;
      const budgeted = budget ? (budget as RunBudget) : null;
      remember(this.runs, runId, { budget: budgeted, path });
      if (parentRunId === null && typeof ownerThreadId === 'string') remember(this.owners, runId, ownerThreadId);
      // A new subtree has spent nothing: its tally is exact without a read.
      if (budgeted) this.tally.open(runSpendKey(runId), NOTHING_SPENT, runCovers(path));
      return;
    }
    const call = readModelCallEvent(event);
    if (call?.type === ModelCallEvents.started) {
      const { callId, runPath, rootRunId, replay } = call.data;
      if (typeof callId !== 'string' || typeof runPath !== 'string') return;
      const playedBack = (replay as { source?: unknown } | undefined)?.source === 'record';
      remember(this.calls, callId, { place: { runPath }, ...(typeof rootRunId === 'string' ? { rootRunId } : {}), playedBack });
      return;
    }
    if (call?.type === ModelCallEvents.finished || call?.type === ModelCallEvents.failed) {
      const { callId, usage, cost } = call.data;
      if (typeof callId !== 'string') return;
      const started = this.calls.get(callId);
      this.calls.delete(callId);
      // A call whose start this process did not see (before it came up) counted in the read of any budget over it.
      if (!started || started.playedBack) return this.tally.callCommitted(undefined, callId, 0, 0);
      const place = this.placeOf(started.place.runPath, started.rootRunId);
      this.tally.callCommitted(place, callId, tokensOf(usage as ModelUsage | undefined), amountOf(cost as ModelCost | undefined));
      return;
    }
    if (call?.type === ModelCallEvents.interrupted) {
      if (typeof call.data.callId === 'string') this.calls.delete(call.data.callId);
      return;
    }
    const usage = runUsageOf(event);
    if (usage && usage.inputTokens + usage.outputTokens > 0) {
      const path = this.runs.get(usage.runId)?.path;
      if (path) this.tally.usageCommitted(this.placeOf(path, undefined), usage.inputTokens + usage.outputTokens);
    }
  }

  /** Runs on a call's path (`onPath`, the root first) not seen yet (started before this process, or forgotten): one read. */
  private async learnRuns(ids: readonly string[], onPath: readonly string[]): Promise<void> {
    const budgeted = await this.runsRead.budgetedAmong(ids);
    const byId = new Map(budgeted.map((row) => [row.runId, row]));
    for (const id of ids) {
      if (this.runs.has(id)) continue;
      const row = byId.get(id);
      // A run's path is its ancestors' ids and its own: the call's path says it.
      const path = `/${onPath.slice(0, onPath.indexOf(id) + 1).join('/')}/`;
      remember(this.runs, id, { budget: row ? (budgetOf(row) ?? null) : null, path: row?.path ?? path });
    }
  }

  private async ownerOf(rootRunId: string): Promise<string | undefined> {
    const known = this.owners.get(rootRunId);
    if (known) return known;
    const row = await this.runsRead.find(rootRunId);
    if (row) remember(this.owners, rootRunId, row.ownerThreadId);
    return row?.ownerThreadId;
  }

  /**
   * A budget asked for the first time: its tally opened at once (the calls ending during the read count
   * in it), then what the read found added. Concurrent asks share the read.
   */
  private load(key: string, covers: (place: SpendPlace) => boolean, sessionId?: string, path?: string): Promise<void> {
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight;
    this.tally.open(key, NOTHING_SPENT, covers);
    const read = (sessionId ? this.readSession(sessionId) : this.readRun(path ?? ''))
      .then((spent) => this.tally.addRead(key, spent))
      .catch((error: unknown) => {
        this.tally.drop(key);
        this.logger.error({ key, err: error }, 'could not read what a budget spent');
        throw error;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, read);
    return read;
  }

  private async readRun(path: string): Promise<TalliedSpend> {
    const [spend, [calls]] = await Promise.all([this.runsRead.subtreeSpend(path), this.callsRead.spendOf([{ runPath: path }])]);
    return { cliTokens: spend.tokens, ledgerTokens: calls.inputTokens + calls.outputTokens, cost: calls.cost ?? 0 };
  }

  private async readSession(sessionId: string): Promise<TalliedSpend> {
    const [spend, roots] = await Promise.all([this.runsRead.sessionSpend(sessionId), this.runsRead.rootPathsOwnedBy(sessionId)]);
    const calls = await this.callsRead.spendOf(roots.map((runPath) => ({ runPath })));
    return calls.reduce((sum, c) => ({ ...sum, ledgerTokens: sum.ledgerTokens + c.inputTokens + c.outputTokens, cost: sum.cost + (c.cost ?? 0) }), {
      cliTokens: spend.tokens,
      ledgerTokens: 0,
      cost: 0,
    });
  }
}

import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { filter, type Subscription } from 'rxjs';
import { EventStore, runIdOfThread, sessionIdOfStream } from '../event-store';
import { type ModelCallSpendView, ModelCallsReadModel } from '../model-calls';
import { ancestorIdsOf, type RunRow, RunsReadModel, type SubtreeSpend } from '../run-lineage';
import { PauseHolds } from '../pauses';
import { CLI_EVENT_PREFIX, SessionRegistry } from '../sessions';
import { API_THREAD, RunEvents, type StoppedBy } from './run.events';
import { type BudgetBreach, breachOf, type BudgetUse, type CoveringBudget, newWarnings, type RunBudget } from './run-budget';
import { RunStateError } from './run.errors';
import { RunHandleTable } from './run-handle-table';
import { RunRepository } from './run-repository';
import { RunStopper } from './run-stopper';

/** The CLI events that spend: what the runs projection sums (tokens, tool calls). */
const SPENDING = new Set([`${CLI_EVENT_PREFIX}assistant.usage`, `${CLI_EVENT_PREFIX}tool.execution_start`]);
/** A stop begun by a refused model call: the message its turn ended on, and the session that is ending it. */
interface RefusalStop {
  message: string;
  endingTurns: ReadonlySet<string>;
}
/** How often running budgeted runs are checked anyway: time spends without any event. */
const SWEEP_MS = 250;

/**
 * A subtree's use: runs, tool calls and time from the runs table; tokens from the CLI's usage events or the
 * model-call ledger, whichever counted more so far (the ledger records a call as its answer ends, the CLI's
 * event may come later); cost from the ledger (0 when no call was routed or priced).
 */
export function budgetUseOf(spend: SubtreeSpend, calls?: Pick<ModelCallSpendView, 'inputTokens' | 'outputTokens' | 'cost'>): BudgetUse {
  return {
    tokens: Math.max(spend.tokens, calls ? calls.inputTokens + calls.outputTokens : 0),
    tool_calls: spend.toolCalls,
    runs: spend.runs,
    duration_ms: spend.durationMs,
    // An unknown cost counts 0 here: the gate refuses a model without a price under a cost budget.
    cost: calls?.cost ?? 0,
  };
}

export function budgetOf(row: Pick<RunRow, 'budget'>): RunBudget | undefined {
  return row.budget ? (JSON.parse(row.budget) as RunBudget) : undefined;
}

/**
 * Budgets per subtree, counted where usage is recorded: each committed usage or tool event of a run's
 * session (the runs projection is inline, so the read model already has it) checks the budgets of the
 * run and of its ancestors against their subtrees' sums; a sweep every 250 ms covers time. At 80% of a
 * limit the run records `run.budget_warned` (its owner is told at its next turn); past a limit the
 * budgeted run's subtree is stopped with the stop cascade, `stopped_by.actor = budget`.
 */
@Injectable()
export class BudgetGuard implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(BudgetGuard.name);
  private subscription?: Subscription;
  private startedSubscription?: Subscription;
  /**
   * Whether a budgeted run may be running (true at start: runs recovered after a restart). The sweep reads
   * the runs table only while it is, so an idle service spends no SQL on budgets every 250 ms.
   */
  private budgetedRunsMayRun = true;
  /** Budgeted starts and resumes seen: a sweep that read none running keeps sweeping if one came during its read. */
  private budgetedStarts = 0;
  /** The sweep in progress: a tick while one is still reading is skipped. */
  private sweeping?: Promise<void>;
  private timer?: NodeJS.Timeout;
  /** Budgeted runs whose subtree is being stopped for their budget. */
  private readonly stopping = new Set<string>();
  /** `<runId>:<limit>` warnings on their way to the run stream. */
  private readonly warning = new Set<string>();

  constructor(
    private readonly store: EventStore,
    private readonly runs: RunsReadModel,
    private readonly stopper: RunStopper,
    private readonly repository: RunRepository,
    private readonly handles: RunHandleTable,
    private readonly sessions: SessionRegistry,
    private readonly calls: ModelCallsReadModel,
    private readonly pauses: PauseHolds,
  ) {}

  onModuleInit(): void {
    this.subscription = this.store.committed$.pipe(filter((event) => SPENDING.has(event.type))).subscribe((event) => {
      const runId = runIdOfThread(sessionIdOfStream(event.streamId) ?? '');
      if (runId) void this.checkCovering(runId).catch((error: unknown) => this.logger.error({ runId, err: error }, 'could not check run budgets'));
    });
    this.startedSubscription = this.store.committed$
      // A resumed run keeps the budget it started with.
      .pipe(filter((event) => (event.type === RunEvents.started && event.data.budget !== undefined) || event.type === RunEvents.resumed))
      .subscribe(() => {
        this.budgetedRunsMayRun = true;
        this.budgetedStarts += 1;
      });
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((error: unknown) => this.logger.error({ err: error }, 'budget sweep failed'))
        .finally(() => (this.sweeping = undefined));
    }, SWEEP_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.subscription?.unsubscribe();
    this.startedSubscription?.unsubscribe();
    clearInterval(this.timer);
    // A sweep still reading ends before the database closes.
    await this.sweeping;
  }

  /**
   * The budgets that cover a new run under `parentPath` (the parent's and its ancestors'), with their use
   * so far, after the budget of the session that started the tree (`sessionId`: the root's owner thread).
   */
  async covering(parentPath: string | undefined, sessionId: string | undefined): Promise<CoveringBudget[]> {
    const session = await this.sessionBudget(sessionId);
    if (!parentPath) return session ? [session] : [];
    const ids = [...ancestorIdsOf(parentPath), ...parentPath.split('/').filter(Boolean).slice(-1)];
    const budgeted = (await this.runs.budgetedAmong(ids)).sort((a, b) => a.depth - b.depth);
    const runBudgets = await Promise.all(
      budgeted.map(async (row) => ({ runId: row.runId, budget: budgetOf(row) as RunBudget, used: await this.subtreeUse(row.path) })),
    );
    return session ? [session, ...runBudgets] : runBudgets;
  }

  /** What a run's subtree spent: the runs table's sums with the model-call ledger's tokens and cost. */
  async subtreeUse(path: string, now = Date.now()): Promise<BudgetUse> {
    const [spend, [calls], pausedMs] = await Promise.all([
      this.runs.subtreeSpend(path, now),
      this.calls.spendOf([{ runPath: path }]),
      this.pausedMsOf(path, now),
    ]);
    return budgetUseOf({ ...spend, durationMs: Math.max(0, spend.durationMs - pausedMs) }, calls);
  }

  /**
   * issue 26: budget time leaves paused time out: what pauses held of each run's last launch under `path`
   * (this process's pauses; an earlier launch keeps its paused time, which only errs on the safe side).
   */
  private async pausedMsOf(path: string, now: number): Promise<number> {
    if (!this.pauses.anyPauseSeen()) return 0;
    const launches = await this.runs.subtreeLaunches(path);
    const held = await Promise.all(
      launches.map((run) => {
        const end = run.status === 'running' || !run.endedAt ? now : Date.parse(run.endedAt);
        return this.pauses.pausedMsOver(run.threadId, Date.parse(run.launchedAt), end);
      }),
    );
    return held.reduce((sum, ms) => sum + ms, 0);
  }

  /** A session's budget (set at its creation) with what the runs it started spent so far. */
  async sessionBudget(sessionId: string | undefined): Promise<CoveringBudget | undefined> {
    if (!sessionId || sessionId === API_THREAD) return undefined;
    const budget = this.sessions.get(sessionId)?.config.budget;
    if (!budget) return undefined;
    const [spend, roots] = await Promise.all([this.runs.sessionSpend(sessionId), this.runs.rootPathsOwnedBy(sessionId)]);
    // Every root's subtree in one statement.
    const calls = await this.calls.spendOf(roots.map((path) => ({ runPath: path })));
    const summed = calls.reduce(
      (sum, c) => ({ inputTokens: sum.inputTokens + c.inputTokens, outputTokens: sum.outputTokens + c.outputTokens, cost: sum.cost + (c.cost ?? 0) }),
      { inputTokens: 0, outputTokens: 0, cost: 0 },
    );
    return { sessionId, budget, used: budgetUseOf(spend, summed) };
  }

  /**
   * Whether any budget may cover a run now: a budgeted run may be running, or a live session has a budget.
   * When not, a check (and the model-call gate) reads nothing.
   */
  mayApply(): boolean {
    return this.budgetedRunsMayRun || this.anySessionBudget();
  }

  /** Whether a live session has a budget: only then is a run's tree owner worth reading. */
  anySessionBudget(): boolean {
    return this.sessions.all().some((session) => session.config.budget);
  }

  /**
   * A model call was refused because a budget over it is spent: that budget's subtree (or every run of the
   * session) is stopped as if it had been passed, `stopped_by.actor = budget`.
   */
  budgetSpent(owner: { runId?: string; sessionId?: string }, breach: BudgetBreach, refused: { sessionId: string; message: string }): void {
    // The refused call's turn ends on the refusal (the CLI records it as session.error): that session is not aborted.
    const stop = { message: refused.message, endingTurns: new Set([refused.sessionId]) };
    if (owner.runId) this.stop(owner.runId, breach, stop);
    else if (owner.sessionId) this.stopSession(owner.sessionId, breach, stop);
  }

  /**
   * A run was refused because a budget had no run left: asking for one more passes `max_runs`, so the
   * budgeted subtree is stopped like any other budget that was passed.
   */
  runsLimitPassed(owner: { runId?: string; sessionId?: string }, breach: BudgetBreach): void {
    const passed = { ...breach, used: breach.used + 1 };
    if (owner.runId) this.stop(owner.runId, passed);
    else if (owner.sessionId) this.stopSession(owner.sessionId, passed);
  }

  /**
   * Checks the budgets of a run that spent and of its ancestors. Every usage and tool event of every run
   * comes here: with no budgeted run going and no session budget, it reads nothing.
   */
  private async checkCovering(runId: string): Promise<void> {
    if (!this.mayApply()) return;
    const row = await this.runs.find(runId);
    if (!row) return;
    const budgeted = await this.runs.budgetedAmong([...ancestorIdsOf(row.path), runId]);
    await Promise.all(budgeted.map((run) => this.check(run)));
    const root = row.parentRunId ? await this.runs.find(row.rootRunId) : row;
    if (root && root.parentRunId === null) await this.checkSession(root.ownerThreadId);
  }

  /** Time spends without events: budgeted runs, and sessions with a budget that have runs going, are checked anyway. */
  private async sweep(): Promise<void> {
    if (this.budgetedRunsMayRun) {
      const startsBefore = this.budgetedStarts;
      const running = await this.runs.runningBudgeted();
      // A budgeted run that started during the read may be missing from it: sweep again next tick.
      if (running.length === 0 && this.budgetedStarts === startsBefore) this.budgetedRunsMayRun = false;
      await Promise.all(running.map((row) => this.check(row)));
    }
    if (!this.anySessionBudget()) return;
    await Promise.all((await this.runs.sessionsWithRunningRuns()).map((sessionId) => this.checkSession(sessionId)));
  }

  /** A session's budget over every run it started: past a limit, each of its running runs' subtrees is stopped. */
  private async checkSession(sessionId: string): Promise<void> {
    if (this.stopping.has(`session:${sessionId}`)) return;
    const covering = await this.sessionBudget(sessionId);
    if (!covering) return;
    const breach = breachOf(covering.budget, covering.used);
    // stopSession checks `stopping` again: another check may have begun the stop during the read.
    if (breach) this.stopSession(sessionId, breach);
  }

  private stopSession(sessionId: string, breach: BudgetBreach, refusal?: RefusalStop): void {
    const key = `session:${sessionId}`;
    if (this.stopping.has(key)) return;
    this.stopping.add(key);
    this.logger.warn({ sessionId, ...breach }, 'session budget exceeded: stopping every run it started');
    const stoppedBy: StoppedBy = {
      actor: 'budget',
      reason: 'budget_exceeded',
      ...breach,
      budgetSessionId: sessionId,
      ...(refusal ? { message: refusal.message } : {}),
    };
    void this.runs
      .runningRootsOwnedBy(sessionId)
      .then((roots) =>
        Promise.all(
          roots.map((runId) =>
            this.stopper.stopTree(runId, stoppedBy, refusal?.endingTurns).catch((error: unknown) => {
              if (!(error instanceof RunStateError)) this.logger.error({ runId, err: error }, 'could not stop a run past its session budget');
            }),
          ),
        ),
      )
      .catch((error: unknown) => this.logger.error({ sessionId, err: error }, 'could not read the runs a session started'))
      .finally(() => this.stopping.delete(key));
  }

  private async check(row: RunRow): Promise<void> {
    const budget = budgetOf(row);
    // Every instance sees every instance's usage; only the one executing the budgeted run (it holds the
    // run's live handle, and so its subtree's) warns and stops: another's stop would be refused with a 409.
    if (!budget || row.status !== 'running' || !this.handles.has(row.runId) || this.underStop(row, undefined)) return;
    const used = await this.subtreeUse(row.path);
    // A stop may have begun during the reads: checked again with no await before acting on it (the owner is
    // read only while something is being stopped). stop() and warn() also dedupe: two checks act once.
    const owner = this.stopping.size > 0 ? await this.treeOwnerOf(row) : undefined;
    if (this.underStop(row, owner)) return;
    const breach = breachOf(budget, used);
    if (breach) return this.stop(row.runId, breach);
    const warned = (JSON.parse(row.budgetWarnings) as Array<{ limit: string }>).map((w) => w.limit);
    for (const warning of newWarnings(budget, used, warned)) this.warn(row.runId, warning);
  }

  /**
   * A run whose subtree (its own or an ancestor's) is already being stopped is left to that stop, as is
   * one whose tree's session (`owner`, when known) is being stopped for its budget.
   */
  private underStop(row: RunRow, owner: string | undefined): boolean {
    if (this.handles.get(row.runId)?.stopping) return true;
    if (owner !== undefined && this.stopping.has(`session:${owner}`)) return true;
    return [...ancestorIdsOf(row.path), row.runId].some((id) => this.stopping.has(id));
  }

  /** The session that started the run's tree (its root's owner thread). */
  private async treeOwnerOf(row: RunRow): Promise<string | undefined> {
    const root = row.parentRunId ? await this.runs.find(row.rootRunId) : row;
    return root?.ownerThreadId;
  }

  private warn(runId: string, breach: BudgetBreach): void {
    const key = `${runId}:${breach.limit}`;
    if (this.warning.has(key)) return;
    this.warning.add(key);
    this.repository
      .decide(runId, { type: 'warn_budget', breach }, { actor: 'budget' })
      .then(() => this.logger.log({ runId, ...breach }, 'run budget warning'))
      .catch((error: unknown) => {
        if (!(error instanceof RunStateError)) this.logger.warn({ runId, err: error }, 'could not record a budget warning');
      })
      .finally(() => this.warning.delete(key));
  }

  private stop(runId: string, breach: BudgetBreach, refusal?: RefusalStop): void {
    if (this.stopping.has(runId)) return;
    this.stopping.add(runId);
    this.logger.warn({ runId, ...breach }, 'run budget exceeded: stopping its subtree');
    this.stopper
      .stopTree(runId, { actor: 'budget', reason: 'budget_exceeded', ...breach, ...(refusal ? { message: refusal.message } : {}) }, refusal?.endingTurns)
      .catch((error: unknown) => {
        if (!(error instanceof RunStateError)) this.logger.error({ runId, err: error }, 'could not stop a run past its budget');
      })
      .finally(() => this.stopping.delete(runId));
  }
}

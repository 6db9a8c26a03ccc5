import { Inject, Injectable, Logger } from '@nestjs/common';
import { SWITCHBOARD_CONFIG, priceOf, type SwitchboardConfig } from '../config';
import { type ModelCallAdmission, type ModelCallGate, type ModelCallSpent, ProvidesModelCallGate, type ModelCallLineage } from '../model-calls';
import { BudgetGuard } from './budget-guard';
import { BudgetSpend } from './budget-spend';
import { type CoveringBudget, modelCallAdmission, type TightestLeft } from './run-budget';

/**
 * Budgets that refuse before spending (issue 25): before a run's model call is sent, every budget over
 * the run (its own, its ancestors', the budget of the session that started its tree) is looked at, with
 * what it spent so far from memory (issue 41, `BudgetSpend`: this instance's calls count as their answer
 * ends, before the CLI can send the next one, so no call waits for a record or a read); one whose
 * tokens or cost are already spent refuses the call (the CLI's loop ends the turn on the message) and its
 * subtree is stopped as BudgetGuard stops a passed budget. Otherwise the call's output is capped at what
 * the tightest token budget has left. Under a cost budget, a call to a model the price table does not list
 * is refused: its cost could not be counted. With no budgeted run going and no session budget, it looks at nothing.
 */
@Injectable()
@ProvidesModelCallGate()
export class BudgetModelGate implements ModelCallGate {
  private readonly logger = new Logger(BudgetModelGate.name);

  constructor(
    private readonly guard: BudgetGuard,
    private readonly spend: BudgetSpend,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  /** A session's own agent is covered by no budget (a session's budget is over the runs it starts). */
  applies(call: ModelCallLineage): boolean {
    return call.runId !== undefined && call.runPath !== undefined && this.guard.mayApply();
  }

  async admit(call: ModelCallLineage & { model: string }): Promise<ModelCallAdmission> {
    // A session's own agent is covered by no budget (a session's budget is over the runs it starts).
    if (!call.runId || !call.runPath || !this.guard.mayApply()) return undefined;
    const covering = await this.spend.covering({ runId: call.runId, runPath: call.runPath, rootRunId: call.rootRunId }, this.guard.anySessionBudget());
    if (covering.length === 0) return undefined;
    const unpriced = this.unpricedUnderCost(covering, call);
    if (unpriced) return unpriced;
    const admission = modelCallAdmission(covering);
    if ('spent' in admission) return this.refuse(call, admission.spent);
    return admission.tokensLeft ? { outputCap: admission.tokensLeft.left } : undefined;
  }

  private refuse(call: ModelCallLineage, spent: TightestLeft): ModelCallAdmission {
    const { runId, sessionId, limit, allowed, used } = spent;
    const currency = limit === 'max_cost' ? ` ${this.config.modelCalls.prices?.currency ?? ''}`.trimEnd() : '';
    const whose =
      runId === call.runId
        ? `run ${runId}'s budget`
        : runId
          ? `the budget of run ${runId} (over run ${call.runId})`
          : `the budget of session ${sessionId} (over the runs it starts)`;
    const message =
      `Switchboard refused this model call: ${whose} has reached ${limit} ${allowed}${currency} (used ${used}${currency}). ` +
      `The run and every run under it are being stopped. To go on, start the work again with a larger ${limit}.`;
    this.logger.warn({ runId: call.runId, budgetRunId: runId, budgetSessionId: sessionId, limit, allowed, used }, 'model call refused: budget spent');
    this.guard.budgetSpent({ runId, sessionId }, { limit, allowed, used }, { sessionId: call.sessionId, message });
    return {
      refuse: { limit, used, max: allowed, ...(runId ? { budgetRunId: runId } : {}), ...(sessionId ? { budgetSessionId: sessionId } : {}), message },
    };
  }

  /** A cost budget cannot count a call whose model has no price: the call is refused, saying which model and setting. */
  private unpricedUnderCost(covering: readonly CoveringBudget[], call: ModelCallLineage & { model: string }): ModelCallAdmission {
    const costly = covering.find((c) => c.budget.max_cost !== undefined);
    if (!costly || priceOf(this.config.modelCalls.prices, call.model)) return undefined;
    const whose = costly.runId ? `run ${costly.runId}` : `session ${costly.sessionId}`;
    const message =
      `Switchboard refused this model call: the budget of ${whose} has max_cost ${costly.budget.max_cost}, and model ${call.model} has no price ` +
      `in SWITCHBOARD_MODEL_PRICES, so its cost could not be counted. Add the model to the price table, or use a model it lists.`;
    this.logger.warn({ runId: call.runId, model: call.model }, 'model call refused: no price for its model under a cost budget');
    return {
      refuse: {
        limit: 'max_cost',
        used: costly.used.cost,
        max: costly.budget.max_cost as number,
        ...(costly.runId ? { budgetRunId: costly.runId } : {}),
        ...(costly.sessionId ? { budgetSessionId: costly.sessionId } : {}),
        message,
      },
    };
  }

  /** Every call's spend counts at once, whether a budget covered it when it was sent or not (one may start covering it since). */
  answered(call: ModelCallLineage, spent: ModelCallSpent): void {
    this.spend.callSpent(call, spent.callId, spent.usage, spent.cost);
  }
}

import { BUDGET_LIMITS, type Budget, type BudgetInput, budgetInputSchema, type BudgetLimit, toBudget } from '../sessions';

export { BUDGET_LIMITS, type BudgetLimit };
/** What a caller may set as a run's budget: it covers the run and every run under it. */
export const runBudgetInputSchema = budgetInputSchema;
export type RunBudgetInput = BudgetInput;
/** A run's budget as stored with it (already narrowed by its ancestors' remaining budgets at start). */
export type RunBudget = Budget;
export const toRunBudget = toBudget;

/**
 * Usage summed over a subtree (the run included); a running run counts its time so far. `cost` is what its
 * model calls cost in the price table's currency, from the model-call ledger (0 without a table or a route).
 */
export interface BudgetUse {
  tokens: number;
  tool_calls: number;
  runs: number;
  duration_ms: number;
  cost: number;
}

const USE_OF: Record<BudgetLimit, keyof BudgetUse> = {
  max_tokens: 'tokens',
  max_tool_calls: 'tool_calls',
  max_runs: 'runs',
  max_duration_ms: 'duration_ms',
  max_cost: 'cost',
};

/** Costs are kept to a millionth of the currency's unit (as each call's cost is): differences stay free of float noise. */
const roundCost = (amount: number): number => Math.round(amount * 1_000_000) / 1_000_000;

/** What is left of one limit (may be <= 0: spent). */
function leftOf(limit: BudgetLimit, allowed: number, used: BudgetUse): number {
  const left = allowed - used[USE_OF[limit]];
  return limit === 'max_cost' ? roundCost(left) : left;
}

/** One limit compared with its use: what `stopped_by`, the warning and the refusal carry. */
export interface BudgetBreach {
  limit: BudgetLimit;
  allowed: number;
  used: number;
}

/** Below this share of a limit nobody is told; at or past it the owner's next turn is. */
export const BUDGET_WARNING_SHARE = 0.8;

/** An ancestor's (or a session's) budget with what its subtree used so far, before the new run starts. */
export interface CoveringBudget {
  /** The budgeted run, or the session whose budget it is. */
  runId?: string;
  sessionId?: string;
  budget: RunBudget;
  used: BudgetUse;
}

/**
 * The budget a new run gets: per limit, the smallest of its own and of what each covering budget has
 * left (a child never gets more than its ancestors left; the new run itself counts as one run).
 * Undefined when nothing limits it. A value <= 0 means that covering budget is exhausted.
 */
export function narrowBudget(own: RunBudget | undefined, covering: readonly CoveringBudget[]): RunBudget | undefined {
  const result: RunBudget = { ...own };
  for (const { budget, used } of covering) {
    for (const limit of BUDGET_LIMITS) {
      const allowed = budget[limit];
      if (allowed === undefined) continue;
      const left = leftOf(limit, allowed, used);
      result[limit] = Math.min(result[limit] ?? left, left);
    }
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/** The first covering budget with nothing left (used >= allowed): a new run under it is refused. */
export function exhaustion(covering: readonly CoveringBudget[]): (BudgetBreach & { runId?: string; sessionId?: string }) | undefined {
  for (const { runId, sessionId, budget, used } of covering) {
    for (const limit of BUDGET_LIMITS) {
      const allowed = budget[limit];
      if (allowed !== undefined && used[USE_OF[limit]] >= allowed) {
        return { ...(runId ? { runId } : {}), ...(sessionId ? { sessionId } : {}), limit, allowed, used: used[USE_OF[limit]] };
      }
    }
  }
  return undefined;
}

/** The first limit the use went past (used > allowed): the subtree is stopped. */
export function breachOf(budget: RunBudget, used: BudgetUse): BudgetBreach | undefined {
  for (const limit of BUDGET_LIMITS) {
    const allowed = budget[limit];
    if (allowed !== undefined && used[USE_OF[limit]] > allowed) return { limit, allowed, used: used[USE_OF[limit]] };
  }
  return undefined;
}

/** Limits at or past the warning share that were not warned about yet. */
export function newWarnings(budget: RunBudget, used: BudgetUse, warned: readonly string[]): BudgetBreach[] {
  return BUDGET_LIMITS.flatMap((limit) => {
    const allowed = budget[limit];
    const value = used[USE_OF[limit]];
    return allowed !== undefined && !warned.includes(limit) && value >= allowed * BUDGET_WARNING_SHARE ? [{ limit, allowed, used: value }] : [];
  });
}

/** The budget as the APIs show it: the limits, the subtree's use, and what is left (never below 0). */
export interface BudgetView {
  limits: RunBudget;
  used: BudgetUse | null;
  remaining: RunBudget | null;
}

export function budgetView(budget: RunBudget, used: BudgetUse | undefined): BudgetView {
  if (!used) return { limits: budget, used: null, remaining: null };
  const remaining: RunBudget = {};
  for (const limit of BUDGET_LIMITS) {
    const allowed = budget[limit];
    if (allowed !== undefined) remaining[limit] = Math.max(0, leftOf(limit, allowed, used));
  }
  return { limits: budget, used, remaining };
}

/** The tightest token and cost budgets among `covering`: what is left of each, and whose budget it is. */
export interface TightestLeft {
  limit: 'max_tokens' | 'max_cost';
  left: number;
  allowed: number;
  used: number;
  runId?: string;
  sessionId?: string;
}

/**
 * Before a model call: the first covering budget whose tokens or cost are already spent (used >= allowed),
 * which refuses the call, else the least any token budget has left (the call's output cap). Only tokens and
 * cost: tool calls, runs and time are not spent by a model call, and keep being stopped after the fact.
 */
export function modelCallAdmission(covering: readonly CoveringBudget[]): { spent: TightestLeft } | { tokensLeft?: TightestLeft } {
  let tokensLeft: TightestLeft | undefined;
  for (const { runId, sessionId, budget, used } of covering) {
    for (const limit of ['max_tokens', 'max_cost'] as const) {
      const allowed = budget[limit];
      if (allowed === undefined) continue;
      const left = leftOf(limit, allowed, used);
      const owner = { ...(runId ? { runId } : {}), ...(sessionId ? { sessionId } : {}) };
      const found: TightestLeft = { limit, left, allowed, used: used[USE_OF[limit]], ...owner };
      if (left <= 0) return { spent: found };
      if (limit === 'max_tokens' && (tokensLeft === undefined || left < tokensLeft.left)) tokensLeft = found;
    }
  }
  return { tokensLeft };
}

export function describeBreach(b: BudgetBreach): string {
  return `${b.limit} ${b.allowed}, used ${b.used}`;
}

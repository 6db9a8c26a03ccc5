import { z } from 'zod';
import { DomainError } from '../common';
import type { ModelPriceTable } from '../config';
import type { ModelRouteState } from '../copilot-cli';
import { budgetCostValue, type BudgetInput, budgetLimitValue } from '../agents';

// The schema lives with the agent format, whose `budget` default is the same shape; sessions and runs take it from here.
export { budgetInputSchema, type BudgetInput } from '../agents';

/** The same budget in the JSON API's camelCase (sessions, POST /api/runs), checked into the tools' names. */
export const budgetApiInputSchema = z
  .object({
    maxTokens: budgetLimitValue.optional(),
    maxToolCalls: budgetLimitValue.optional(),
    maxRuns: budgetLimitValue.optional(),
    maxDurationMs: budgetLimitValue.optional(),
    maxCost: budgetCostValue.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one of maxTokens, maxToolCalls, maxRuns, maxDurationMs, maxCost',
  })
  .transform((b): BudgetInput => ({
    max_tokens: b.maxTokens,
    max_tool_calls: b.maxToolCalls,
    max_runs: b.maxRuns,
    max_duration_ms: b.maxDurationMs,
    max_cost: b.maxCost,
  }));

export type BudgetLimit = 'max_tokens' | 'max_tool_calls' | 'max_runs' | 'max_duration_ms' | 'max_cost';
export const BUDGET_LIMITS: readonly BudgetLimit[] = ['max_tokens', 'max_tool_calls', 'max_runs', 'max_duration_ms', 'max_cost'];

/** A budget as stored: only the limits that were set. */
export type Budget = Partial<Record<BudgetLimit, number>>;

export function toBudget(input: BudgetInput | undefined): Budget | undefined {
  if (!input) return undefined;
  const budget: Budget = {};
  for (const limit of BUDGET_LIMITS) if (input[limit] !== undefined) budget[limit] = input[limit];
  return budget;
}

/**
 * Why a budget cannot be kept here, or undefined: `max_cost` counts money from the model-call ledger, so it
 * needs a price table (SWITCHBOARD_MODEL_PRICES) and every model call routed through Switchboard.
 */
export function costBudgetProblem(
  budget: Budget | undefined,
  prices: ModelPriceTable | undefined,
  route: ModelRouteState,
  field = 'budget.maxCost',
): string | undefined {
  if (budget?.max_cost === undefined) return undefined;
  if (!prices) return `${field} needs a price table: set SWITCHBOARD_MODEL_PRICES to a JSON file of model prices, or leave out maxCost`;
  if (!route.routed) {
    return `${field} needs model calls routed through Switchboard, and they are not: ${route.reason}. A cost budget can only refuse a call it sees; leave out maxCost`;
  }
  return undefined;
}

/** A budget this service cannot keep (a cost limit without a price table or without the model route). HTTP 422. */
export class BudgetUnavailableError extends DomainError {
  readonly code = 'budget_unavailable';
}

/**
 * Whether the CLI routes model calls is known once it started (it starts with the first session): a cost
 * budget starts it first, so the first session of a fresh service is not refused for a route not asked yet.
 */
export async function routeForBudget(
  budget: Budget | undefined,
  cli: { ensureStarted(): Promise<void>; modelRoute(): ModelRouteState },
): Promise<ModelRouteState> {
  if (budget?.max_cost !== undefined) await cli.ensureStarted();
  return cli.modelRoute();
}

export function assertBudgetAvailable(budget: Budget | undefined, prices: ModelPriceTable | undefined, route: ModelRouteState, field?: string): void {
  const problem = costBudgetProblem(budget, prices, route, field);
  if (problem) throw new BudgetUnavailableError(problem, { field: field ?? 'budget.maxCost' });
}

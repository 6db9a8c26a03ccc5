import type { BudgetLimits, RunBudgetInput } from './models/budget.model';

/** A budget as agent files, runs and sessions keep it (snake_case; an unset limit is absent). */
export interface StoredBudget {
  max_tokens?: number;
  max_tool_calls?: number;
  max_runs?: number;
  max_duration_ms?: number;
  max_cost?: number;
}

/** A budget's limits as the GraphQL type (null: no limit); runs, sessions and agents' defaults share it. */
export const budgetLimitsOf = (b: StoredBudget): BudgetLimits => ({
  maxTokens: b.max_tokens ?? null,
  maxToolCalls: b.max_tool_calls ?? null,
  maxRuns: b.max_runs ?? null,
  maxDurationMs: b.max_duration_ms ?? null,
  maxCost: b.max_cost ?? null,
});

/**
 * A GraphQL budget (camelCase; null for a limit left unset) as the agent file's snake_case `budget`
 * default. (Runs and sessions take the JSON API's camelCase budget, which their schemas convert.)
 */
export function budgetFromInput(input: RunBudgetInput): StoredBudget {
  return {
    max_tokens: input.maxTokens ?? undefined,
    max_tool_calls: input.maxToolCalls ?? undefined,
    max_runs: input.maxRuns ?? undefined,
    max_duration_ms: input.maxDurationMs ?? undefined,
    max_cost: input.maxCost ?? undefined,
  };
}

/** The same budget for the JSON API's camelCase schema (runs, sessions): a null limit is an unset one. */
export function apiBudgetFromInput(input: RunBudgetInput) {
  return {
    maxTokens: input.maxTokens ?? undefined,
    maxToolCalls: input.maxToolCalls ?? undefined,
    maxRuns: input.maxRuns ?? undefined,
    maxDurationMs: input.maxDurationMs ?? undefined,
    maxCost: input.maxCost ?? undefined,
  };
}

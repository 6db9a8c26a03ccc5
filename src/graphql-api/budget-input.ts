import type { RunBudget } from '../delegation/run-budget';
import type { RunBudgetInput } from './models/run-commands.model';

/**
 * A GraphQL budget (camelCase; null for a limit left unset) as the agent file's snake_case `budget`
 * default. (Runs and sessions take the JSON API's camelCase budget, which their schemas convert.)
 */
export function budgetFromInput(input: RunBudgetInput): RunBudget {
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

import type { RunBudget } from '../delegation/run-budget';
import type { RunBudgetInput } from './models/run-commands.model';

/**
 * A GraphQL budget (camelCase; null for a limit left unset) as the snake_case budget the REST body
 * and the agent file carry: the one mapping for agentRun, createSession and an agent's default.
 */
export function budgetFromInput(input: RunBudgetInput): RunBudget {
  return {
    max_tokens: input.maxTokens ?? undefined,
    max_tool_calls: input.maxToolCalls ?? undefined,
    max_runs: input.maxRuns ?? undefined,
    max_duration_ms: input.maxDurationMs ?? undefined,
  };
}

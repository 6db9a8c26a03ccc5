import { z } from 'zod';
import { type BudgetInput, budgetLimitValue } from '../agents/agent-session-defaults';

// The schema lives with the agent format, whose `budget` default is the same shape; sessions and runs take it from here.
export { budgetInputSchema, type BudgetInput } from '../agents/agent-session-defaults';

/** The same budget in the JSON API's camelCase (sessions, POST /api/runs), checked into the tools' names. */
export const budgetApiInputSchema = z
  .object({
    maxTokens: budgetLimitValue.optional(),
    maxToolCalls: budgetLimitValue.optional(),
    maxRuns: budgetLimitValue.optional(),
    maxDurationMs: budgetLimitValue.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one of maxTokens, maxToolCalls, maxRuns, maxDurationMs',
  })
  .transform((b): BudgetInput => ({ max_tokens: b.maxTokens, max_tool_calls: b.maxToolCalls, max_runs: b.maxRuns, max_duration_ms: b.maxDurationMs }));

export type BudgetLimit = 'max_tokens' | 'max_tool_calls' | 'max_runs' | 'max_duration_ms';
export const BUDGET_LIMITS: readonly BudgetLimit[] = ['max_tokens', 'max_tool_calls', 'max_runs', 'max_duration_ms'];

/** A budget as stored: only the limits that were set. */
export type Budget = Partial<Record<BudgetLimit, number>>;

export function toBudget(input: BudgetInput | undefined): Budget | undefined {
  if (!input) return undefined;
  const budget: Budget = {};
  for (const limit of BUDGET_LIMITS) if (input[limit] !== undefined) budget[limit] = input[limit];
  return budget;
}

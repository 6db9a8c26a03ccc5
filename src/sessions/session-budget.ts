import type { BudgetInput } from '../agents/agent-session-defaults';

// The schema lives with the agent format, whose `budget` default is the same shape; sessions and runs take it from here.
export { budgetInputSchema, type BudgetInput } from '../agents/agent-session-defaults';

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

import { z } from 'zod';

/** Positive 32-bit integers: GraphQL's Int carries them as they are. */
const limitValue = z.number().int('must be a whole number').positive('must be a positive integer').max(2_147_483_647);

/**
 * A budget as a caller gives it (any subset, at least one limit): on a run (`agent_run`, POST /api/runs)
 * it covers the run and every run under it; on a session, every run the session starts and their runs.
 * Defined here so session creation can take one; the delegation engine enforces it (run-budget.ts).
 */
export const budgetInputSchema = z
  .object({
    max_tokens: limitValue.optional(),
    max_tool_calls: limitValue.optional(),
    max_runs: limitValue.optional(),
    max_duration_ms: limitValue.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one of max_tokens, max_tool_calls, max_runs, max_duration_ms',
  });
export type BudgetInput = z.infer<typeof budgetInputSchema>;

/** The same budget in the JSON API's camelCase (sessions, POST /api/runs), checked into the tools' names. */
export const budgetApiInputSchema = z
  .object({
    maxTokens: limitValue.optional(),
    maxToolCalls: limitValue.optional(),
    maxRuns: limitValue.optional(),
    maxDurationMs: limitValue.optional(),
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

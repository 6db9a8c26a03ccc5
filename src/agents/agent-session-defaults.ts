import { z } from 'zod';

/**
 * What a session started as an agent gets unless its request says otherwise (issue 24): delegation, a
 * permission policy and a budget. Defined here, with the agent format, because sessions (which import
 * agents) check their requests with the same kinds and limits.
 */

/** The kinds of a permission request the Copilot CLI asks about. */
export const PERMISSION_KINDS = ['shell', 'write', 'read', 'url', 'mcp', 'custom-tool', 'memory'] as const;
export type PermissionKind = (typeof PERMISSION_KINDS)[number];

/** Positive 32-bit integers: GraphQL's Int carries them as they are. */
export const MAX_BUDGET_LIMIT = 2_147_483_647;
export const budgetLimitValue = z.number().int('must be a whole number').positive('must be a positive integer').max(MAX_BUDGET_LIMIT);
/** The largest `max_cost`, in the price table's currency (SWITCHBOARD_MODEL_PRICES). */
export const MAX_BUDGET_COST = 1_000_000_000;
/** A cost limit: a positive amount of the price table's currency (fractions allowed: 0.5 is half a dollar). */
export const budgetCostValue = z.number().finite().positive('must be a positive amount').max(MAX_BUDGET_COST);

/**
 * A budget as a caller gives it (any subset, at least one limit): on a run (`agent_run`, POST /api/runs)
 * it covers the run and every run under it; on a session, every run the session starts and their runs.
 * The delegation engine enforces it (run-budget.ts).
 */
export const budgetInputSchema = z
  .object({
    max_tokens: budgetLimitValue.optional(),
    max_tool_calls: budgetLimitValue.optional(),
    max_runs: budgetLimitValue.optional(),
    max_duration_ms: budgetLimitValue.optional(),
    /** In the price table's currency; needs SWITCHBOARD_MODEL_PRICES and model calls routed through Switchboard. */
    max_cost: budgetCostValue.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one of max_tokens, max_tool_calls, max_runs, max_duration_ms, max_cost',
  });
export type BudgetInput = z.infer<typeof budgetInputSchema>;

/**
 * issue 42: the git repository its sessions work in, a worktree of their own (needs SWITCHBOARD_REPOSITORIES;
 * checked when a session starts: outside the list, not a repository or an unknown ref is a 422 then).
 */
export const agentWorkspaceSchema = z
  .object({
    repository: z.string().min(1).max(4096),
    ref: z.string().min(1).max(255).optional(),
    merge: z.enum(['auto', 'manual']).optional(),
  })
  .strict();
export type AgentWorkspace = z.infer<typeof agentWorkspaceSchema>;

/** A name in a policy's or a session's lists (ask_tools, tools, custom agents): letters, digits, _ . - */
export const listedNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, _ . - only');

/** An agent's default permission policy, in the agent format's snake_case; a session's request replaces it whole. */
export const agentPermissionPolicySchema = z
  .object({
    /** Kinds approved without asking. */
    allow_kinds: z.array(z.enum(PERMISSION_KINDS)).max(PERMISSION_KINDS.length).default([]),
    /** Kinds that wait for a person (ask beats allow). */
    ask_kinds: z.array(z.enum(PERMISSION_KINDS)).max(PERMISSION_KINDS.length).default([]),
    /** Tool names that wait for a person even when their kind is allowed. */
    ask_tools: z.array(listedNameSchema).max(128).default([]),
  })
  .strict();
export type AgentPermissionPolicy = z.infer<typeof agentPermissionPolicySchema>;

/** Delegation when neither the request nor the agent says: on for a lead (an agent with sub-agents). */
export function delegationByDefault(agent: { delegation?: boolean; sub_agents: readonly string[] }): boolean {
  return agent.delegation ?? agent.sub_agents.length > 0;
}

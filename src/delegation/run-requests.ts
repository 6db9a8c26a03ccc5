import { z } from 'zod';
import type { StartRunInput } from './commands/start-run/start-run.command';
import { budgetApiInputSchema, workspaceRequestSchema } from '../sessions';
import { runPolicyInputSchema } from './run-policy';

/** Bodies of the run commands (the JSON API's camelCase), shared by REST and GraphQL so both check the same rules. */
const agentId = z.string().min(1).max(64);
export const startRunSchema = z
  .object({
    agentId,
    prompt: z.string().trim().min(1, 'prompt must not be empty').max(200_000),
    /** Over REST the default is not to wait; background: false holds the request until the run ends. */
    background: z.boolean().default(true),
    parentRunId: z.string().min(1).max(64).optional(),
    policy: runPolicyInputSchema.optional(),
    /** Start the child with a copy of the parent run's conversation (needs parentRunId). */
    forkContext: z.boolean().default(false),
    /** Limits over the run and every run under it (narrowed by the parent's budget when there is one). */
    budget: budgetApiInputSchema.optional(),
    /** issue 42: the run works in a git worktree made from this repository (else, under parentRunId, from its parent's). */
    workspace: workspaceRequestSchema.optional(),
  })
  .strict();
export const resumeRunSchema = z.object({ prompt: z.string().max(200_000).optional(), background: z.boolean().default(true) }).strict();
export const stopRunSchema = z.object({ reason: z.string().min(1).max(2000).optional() }).strict();

/** A checked start body (REST's, or GraphQL's input mapped to it) as the StartRun command's input. */
export function startRunInput(body: z.infer<typeof startRunSchema>): StartRunInput {
  return {
    agentId: body.agentId,
    prompt: body.prompt,
    background: body.background,
    parentRunId: body.parentRunId,
    policy: body.policy,
    forkContext: body.forkContext,
    budget: body.budget,
    ...(body.workspace ? { workspace: body.workspace } : {}),
  };
}

/** issue 26: `POST /api/runs/:id/replay`. */
export const replayRunSchema = z
  .object({
    /** At the first call that differs from the record: stop the replay tree (default) or go on live with the model. */
    onDivergence: z.enum(['stop', 'live']).default('stop'),
    /** Let the CLI's built-in tools with side effects (shell, write, url, mcp) run; denied by default. */
    allowSideEffects: z.boolean().default(false),
    background: z.boolean().default(true),
  })
  .strict();

const agentOverride = z
  .object({ prompt: z.string().min(1).max(200_000).optional(), model: z.string().min(1).max(200).optional() })
  .strict()
  .refine((o) => o.prompt !== undefined || o.model !== undefined, 'give prompt or model');

/** issue 26: `POST /api/runs/:id/fork`. */
export const forkRunSchema = z
  .object({
    /** A finished model call of the run's subtree (its id in the run's timeline). */
    fromModelCall: z.string().min(1).max(64),
    /** Appended as a user message at the fork point. */
    message: z.string().trim().min(1).max(200_000).optional(),
    /** Per agent name: a prompt or model replacing that agent's from the fork point on. */
    agentOverrides: z
      .record(z.string().min(1).max(64), agentOverride)
      .refine((o) => Object.keys(o).length <= 64, 'at most 64 agents')
      .optional(),
    background: z.boolean().default(true),
  })
  .strict();

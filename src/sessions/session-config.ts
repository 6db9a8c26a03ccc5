import { z } from 'zod';
import { printableName } from '../common';
import { agentWorkspaceSchema, hookListSchema, type HookSpec, listedNameSchema as name, PERMISSION_KINDS } from '../agents';
import { type Budget, budgetApiInputSchema } from './session-budget';

const MAX_PROMPT_CHARS = 200_000;

export const webhookHandlerSchema = z
  .object({
    type: z.literal('webhook'),
    url: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL'),
  })
  .strict();

/** Tools Switchboard itself implements (the delegation engine registers its own). */
export const builtinHandlerSchema = z.object({ type: z.literal('builtin'), name }).strict();

/** The Copilot CLI refuses a session whose tool names hold anything else (a dot made session.create fail: 502). */
const toolName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'use letters, digits, _ and - only (the Copilot CLI refuses other characters in tool names)');

export const toolSpecSchema = z
  .object({
    name: toolName,
    description: z.string().min(1).max(4000),
    parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
    handler: z.discriminatedUnion('type', [webhookHandlerSchema, builtinHandlerSchema]),
  })
  .strict();
export type ToolSpec = z.infer<typeof toolSpecSchema>;

export const customAgentSchema = z
  .object({
    name,
    displayName: printableName(z.string().max(200)).optional(),
    description: z.string().max(4000).optional(),
    prompt: z.string().min(1).max(MAX_PROMPT_CHARS),
    /** unset: every session tool; []: none; a list: those only (spec: Allowlist Enforcement). */
    tools: z.array(name).nullable().optional(),
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    infer: z.boolean().optional(),
    model: z.string().min(1).max(200).optional(),
  })
  .strict();
export type CustomAgentConfig = z.infer<typeof customAgentSchema>;

export { PERMISSION_KINDS, type PermissionKind } from '../agents';

export const permissionPolicySchema = z
  .object({
    /** Kinds approved without asking. `custom-tool` is approved for the session's own tools by default. */
    allowKinds: z.array(z.enum(PERMISSION_KINDS)).default([]),
    /** Set false to refuse even the session's own tools (the model then cannot use them). */
    approveOwnTools: z.boolean().default(true),
    /** Kinds that wait for a person (GET/POST /api/approvals). Ask beats allow. Unset in sessions recorded before issue 14. */
    askKinds: z.array(z.enum(PERMISSION_KINDS)).optional(),
    /** Tool names that wait for a person even when their kind is allowed. */
    askTools: z.array(name).max(128).optional(),
  })
  .strict();
export type PermissionPolicy = z.infer<typeof permissionPolicySchema>;

/** A session's policy when neither its request nor its agent gives one: its own tools approved, every other kind denied. */
export const DEFAULT_PERMISSION_POLICY: PermissionPolicy = { allowKinds: [], approveOwnTools: true };

const agentIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be an agent id (a slug)');

export const changeSubAgentsSchema = z.object({ subAgents: z.array(agentIdSchema).max(64) }).strict();

/**
 * issue 42: `workspace` on a session or a run: the repository (and ref) its git worktree is made from. The
 * same shape as an agent's session default (its field names need no case mapping), so one schema.
 */
export const workspaceRequestSchema = agentWorkspaceSchema;

export const createSessionSchema = z
  .object({
    model: z.string().min(1).max(200).optional(),
    systemMessage: z
      .object({ mode: z.enum(['append', 'replace']).default('append'), content: z.string().max(MAX_PROMPT_CHARS) })
      .strict()
      .optional(),
    tools: z.array(toolSpecSchema).max(128).default([]),
    customAgents: z.array(customAgentSchema).max(64).default([]),
    /** Default: the agent's `permission_policy`, else DEFAULT_PERMISSION_POLICY. */
    permissionPolicy: permissionPolicySchema.optional(),
    /** spec: agent-teams FR-3/FR-4. The library agent the session runs as, and its selected sub-agents. */
    agentId: agentIdSchema.optional(),
    /** Default: the agent's own `sub_agents`. */
    subAgents: z.array(agentIdSchema).max(64).optional(),
    /**
     * spec: sub-agent-delegation. Gives the main agent the agent_run / agent_stop / agent_output tools.
     * Default: the agent's `delegation`, else on for an agent with sub-agents; off without an agent.
     */
    delegation: z.boolean().optional(),
    /** Hook handlers: webhooks the CLI's hooks.invoke calls for this session and its sub-agents are sent to. */
    hooks: hookListSchema.default([]),
    /**
     * spec: agent-teams FR-3 (the chat's Tools and MCP selectors). The main agent's built-in tool allowlist
     * and exclusions, and the operator's MCP servers (by name) it may use. Default: the agent's own
     * `tools.builtin`, `tools.excluded_builtin` and `mcp_servers`; without an agent, every built-in and none.
     */
    availableTools: z.array(toolName).max(128).optional(),
    excludedTools: z.array(toolName).max(128).optional(),
    mcpServers: z.array(z.string().min(1).max(128)).max(64).optional(),
    /** Limits over every run the session starts and their runs (enforced by the delegation engine). Default: the agent's `budget`. */
    budget: budgetApiInputSchema.optional(),
    /**
     * issue 42: the session works in a git worktree of its own, on `switchboard/<sessionId>`, made from this
     * repository (one of SWITCHBOARD_REPOSITORIES or inside one) at `ref` (default its HEAD). `merge`: whether
     * a completed run's changes are merged into its parent's worktree at once (`auto`) or by a person (`manual`).
     */
    workspace: workspaceRequestSchema.optional(),
  })
  // Unknown keys are refused, not dropped: `agentID` for `agentId` must not silently make a plain session.
  .strict()
  .superRefine((value, ctx) => {
    const duplicates = (names: string[]) => [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
    for (const d of duplicates(value.tools.map((t) => t.name))) {
      ctx.addIssue({ code: 'custom', path: ['tools'], message: `tool ${d} is defined twice` });
    }
    for (const d of duplicates(value.customAgents.map((a) => a.name))) {
      ctx.addIssue({ code: 'custom', path: ['customAgents'], message: `agent ${d} is defined twice` });
    }
  });
export type CreateSessionRequest = z.infer<typeof createSessionSchema>;

/** What a session was created with; stored in `session.created` so it can be resumed after a restart. */
export interface SessionConfig {
  model: string;
  systemMessage?: { mode: 'append' | 'replace'; content: string };
  tools: ToolSpec[];
  /** Agents given inline with the request; team agents are mapped from the library at each start. */
  customAgents: CustomAgentConfig[];
  permissionPolicy: PermissionPolicy;
  /** Whether the main agent was given agent_run / agent_stop / agent_output; unset in sessions recorded before issue 24 (their tools say). */
  delegation?: boolean;
  agentId?: string;
  /** issue 28: the main agent's name when the session was created (spans name agents); unset in older sessions and without an agent. */
  agentName?: string;
  subAgents: string[];
  /** The main agent's hooks, then the request's; unset in sessions recorded before hooks existed. */
  hooks?: HookSpec[];
  /** Built-in tools the main agent may use (unset: all); the session's own tools always stay. */
  availableTools?: string[];
  excludedTools?: string[];
  /** Names in the operator's MCP registry, resolved at each start and resume. */
  mcpServers?: string[];
  /** The budget over the runs the session starts (session-budget.ts). */
  budget?: Budget;
  /**
   * issue 26: set only by the delegation engine on a replay's or a fork's run session (never from the API):
   * the recorded session whose model calls and routed tool calls answer this one's.
   */
  replay?: SessionReplay;
  /** issue 42: the session's own git worktree (its working directory); unset: it works in SWITCHBOARD_WORKING_DIRECTORY. */
  workspace?: SessionWorkspace;
}

/** Where a session with a workspace works: what `workspace.opened` recorded, as the CLI and the read scope need it. */
export interface SessionWorkspace {
  path: string;
  repository: string;
  branch: string;
  baseCommit: string;
  /** A run's thread: the session whose worktree it started from and merges into. */
  parentSessionId?: string;
}

/**
 * issue 26: how a session of a replay or fork tree is answered. Its model calls are matched to the
 * original session's finished calls by agent name and position (the n-th call of that agent), never by
 * the CLI's ids; a matched call is answered from the recorded answer, an unmatched or changed one is a
 * divergence. Routed tool calls (webhook tools) are answered from the original session's recorded result
 * of the same tool at the same position; Switchboard's own delegation tools run (the tree is replayed).
 */
export interface SessionReplay {
  /** The session (a run's thread `sub-agent-<runId>`) whose records answer this one; absent: nothing to match, every call is live. */
  originalSessionId?: string;
  /** The run it replays (the original of this session's run), for the views. */
  originalRunId?: string;
  mode: 'replay' | 'fork';
  /** replay: at the first call that differs from the record, stop the replay tree or go on live with the model. */
  onDivergence: 'stop' | 'live';
  /** Whether the CLI's built-in tools with side effects (shell, write, url) may run; denied by default. */
  allowSideEffects: boolean;
  /**
   * fork: the fork point. An original call that started before `startedAt` is answered from the record;
   * the call `callId` and every call after it go to the model.
   */
  liveFrom?: { callId: string; startedAt: string };
  /** fork: appended as a user message to the request at the fork point. */
  message?: string;
  /** fork: per agent name, a model or prompt replacing that agent's in its live calls. */
  agentOverrides?: Record<string, { prompt?: string; model?: string }>;
}

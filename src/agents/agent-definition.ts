import { z } from 'zod';
import { printableName } from '../common';
import { hookListSchema } from './agent-hooks';
import { agentPermissionPolicySchema, agentWorkspaceSchema, budgetInputSchema } from './agent-session-defaults';

export const MAX_AGENT_PROMPT_CHARS = 100_000;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const slug = z.string().min(1).max(64).regex(SLUG, 'must be a slug: lowercase letters, digits and single dashes (e.g. "code-reviewer")');
const names = z.array(z.string().min(1).max(200)).max(256);

/** issue 43: where a remote agent lives: its A2A agent card's URL (`https://host/.../.well-known/agent-card.json`). */
const remoteAgentSchema = z
  .object({
    a2a: z
      .string()
      .max(2000)
      .url('remote.a2a must be the URL of the agent card (https://host/.well-known/agent-card.json)')
      .refine((url) => /^https?:\/\//i.test(url), 'remote.a2a must be an http(s) URL'),
  })
  .strict();

/** spec: agent-teams, Agent JSON Schema (snake_case, as the files teams keep in git). */
export const agentFieldsSchema = z
  .object({
    name: printableName(z.string().trim().min(1, 'name must not be empty').max(200)),
    description: z.string().max(4000).default(''),
    icon: z.string().max(16).default(''),
    system_message: z
      .object({
        mode: z.enum(['append', 'replace']).default('append'),
        content: z.string().max(MAX_AGENT_PROMPT_CHARS, `system_message.content must be at most ${MAX_AGENT_PROMPT_CHARS} characters`).default(''),
      })
      .strict()
      .default({ mode: 'append', content: '' }),
    model: z.string().max(200).nullable().default(null),
    tools: z
      .object({ custom: names.default([]), builtin: names.default([]), excluded_builtin: names.default([]) })
      .strict()
      .default({ custom: [], builtin: [], excluded_builtin: [] }),
    mcp_servers: names.default([]),
    sub_agents: z.array(slug).max(64).default([]),
    /** Delegation policy (spec: sub-agent-delegation): which agents its runs may start; unset: any. */
    allowed_agents: z.array(slug).max(256).optional(),
    excluded_agents: z.array(slug).max(256).optional(),
    /** Hook handlers (webhooks) for sessions and runs this agent is the main agent of; unset: none. */
    hooks: hookListSchema.optional(),
    /** Session defaults (agent-session-defaults.ts); a session's request overrides each. Unset delegation: on when it has sub_agents. */
    delegation: z.boolean().optional(),
    /** Unset: the service's default policy (the session's own tools approved, every other kind denied). */
    permission_policy: agentPermissionPolicySchema.optional(),
    /** Unset: no budget over the runs its sessions start. */
    budget: budgetInputSchema.optional(),
    /** Unset: its sessions work in the shared working directory (or the repository their request names). */
    workspace: agentWorkspaceSchema.optional(),
    /** issue 43: the agent lives on another service, reached over A2A at its card's URL; unset: it runs here. */
    remote: remoteAgentSchema.optional(),
  })
  .strict();

/** POST body and import file: the fields, an optional id (else derived from the name), timestamps ignored. */
export const agentInputSchema = agentFieldsSchema.extend({
  id: slug.optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});

export type AgentFields = z.infer<typeof agentFieldsSchema>;
export type AgentInput = z.infer<typeof agentInputSchema>;

/** An agent as stored and returned. */
export interface AgentDefinition extends AgentFields {
  id: string;
  created_at: string;
  updated_at: string;
}

export const AGENT_FIELD_NAMES = Object.keys(agentFieldsSchema.shape) as Array<keyof AgentFields>;

/** Fields an agent may leave unset (unset means "no restriction", which differs from an empty list). */
export const OPTIONAL_AGENT_FIELDS = [
  'allowed_agents',
  'excluded_agents',
  'hooks',
  'delegation',
  'permission_policy',
  'budget',
  'remote',
] as const satisfies ReadonlyArray<keyof AgentFields>;

/** "Engineering Lead" -> "engineering-lead". */
export function slugify(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 64)
      .replace(/-+$/g, '') || 'agent'
  );
}

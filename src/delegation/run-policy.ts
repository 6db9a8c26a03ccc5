import { z } from 'zod';

const agentId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be an agent id (a slug)');

/** A run's policy as given, in the agent file format's names. */
export interface RunPolicyInput {
  allowed_agents?: string[];
  excluded_agents?: string[];
  max_depth?: number;
  max_concurrent_children?: number;
  timeout_ms?: number;
}

/**
 * What a caller may set on a run (the JSON API's camelCase); unset fields come from the agent
 * definition, then the service defaults. Checked into the agent file format's snake_case names.
 */
export const runPolicyInputSchema = z
  .object({
    allowedAgents: z.array(agentId).max(256).optional(),
    excludedAgents: z.array(agentId).max(256).optional(),
    maxDepth: z.number().int().min(0).max(32).optional(),
    maxConcurrentChildren: z.number().int().min(0).max(1000).optional(),
    timeoutMs: z.number().int().min(1000).max(86_400_000).optional(),
  })
  .strict()
  .transform((p): RunPolicyInput => ({
    allowed_agents: p.allowedAgents,
    excluded_agents: p.excludedAgents,
    max_depth: p.maxDepth,
    max_concurrent_children: p.maxConcurrentChildren,
    timeout_ms: p.timeoutMs,
  }));

/** The policy a run delegates under, stored with the run. */
export interface ResolvedRunPolicy {
  allowedAgents: string[] | null;
  excludedAgents: string[];
  maxDepth: number;
  maxConcurrentChildren: number;
  timeoutMs: number;
}

export interface PolicyDefaults {
  maxDepth: number;
  maxConcurrentChildren: number;
  timeoutMs: number;
}

/** spec: AgentDefinition allowed/excluded agents are projected into the run policy when the run sets none. */
export function resolveRunPolicy(
  input: RunPolicyInput | undefined,
  agent: { allowed_agents?: string[]; excluded_agents?: string[] } | undefined,
  defaults: PolicyDefaults,
): ResolvedRunPolicy {
  return {
    allowedAgents: input?.allowed_agents ?? agent?.allowed_agents ?? null,
    excludedAgents: input?.excluded_agents ?? agent?.excluded_agents ?? [],
    maxDepth: input?.max_depth ?? defaults.maxDepth,
    maxConcurrentChildren: input?.max_concurrent_children ?? defaults.maxConcurrentChildren,
    timeoutMs: input?.timeout_ms ?? defaults.timeoutMs,
  };
}

export interface DelegationRequest {
  targetAgentId: string;
  /** The agent that asks to delegate (undefined: the API, with no delegating agent). */
  callerAgentId: string | undefined;
  /** Depth the new run would have. */
  depth: number;
  /** Runs the caller has running now. */
  runningChildren: number;
}

/** Why a delegation is refused, or undefined when it may go ahead. One rule set for tools and API. */
export function delegationRefusal(policy: ResolvedRunPolicy, request: DelegationRequest): string | undefined {
  const { targetAgentId: target } = request;
  if (request.callerAgentId !== undefined && request.callerAgentId === target) {
    return `${target} cannot delegate to itself`;
  }
  if (policy.allowedAgents !== null && !policy.allowedAgents.includes(target)) {
    return `${target} is not among the allowed agents (${policy.allowedAgents.join(', ') || 'none'})`;
  }
  if (policy.excludedAgents.includes(target)) return `${target} is an excluded agent`;
  if (request.depth > policy.maxDepth) {
    return `the run would be at depth ${request.depth}, deeper than the maximum of ${policy.maxDepth}`;
  }
  if (request.runningChildren >= policy.maxConcurrentChildren) {
    return `the caller already has ${request.runningChildren} running child runs, the maximum is ${policy.maxConcurrentChildren}`;
  }
  return undefined;
}

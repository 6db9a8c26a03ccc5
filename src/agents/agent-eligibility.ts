import type { AgentDefinition, AgentFields } from './agent-definition';

/**
 * spec: agent-teams FR-2 / FR-7. The one rule set for "can this agent be a sub-agent": used by the
 * library's `composable` flag, the eligible-sub-agents list, saving (FR-1/FR-6) and session start (FR-5).
 * Each reason says what to change.
 */
export function compositionProblems(agent: Pick<AgentFields, 'tools' | 'sub_agents' | 'system_message' | 'description' | 'remote'>): string[] {
  // issue 43: a remote agent's prompt and tools are its service's; what it is picked by is its description.
  if (agent.remote) return agent.description.trim() ? [] : ['has no description; the main agent picks sub-agents by their description, so set one'];
  const problems: string[] = [];
  if (agent.tools.custom.length > 0) {
    problems.push(`has custom tools (${agent.tools.custom.join(', ')}); sub-agents cannot carry custom tools, remove them from tools.custom`);
  }
  if (agent.tools.excluded_builtin.length > 0) {
    problems.push(
      `excludes built-in tools (${agent.tools.excluded_builtin.join(', ')}); sub-agents only support an allowlist, use tools.builtin instead of tools.excluded_builtin`,
    );
  }
  if (agent.sub_agents.length > 0) {
    problems.push(`has sub-agents of its own (${agent.sub_agents.join(', ')}); sub-agents cannot be nested, clear its sub_agents`);
  }
  if (agent.system_message.content.trim().length === 0) {
    problems.push('has no prompt; set system_message.content');
  }
  if (agent.description.trim().length === 0) {
    problems.push('has no description; the main agent picks sub-agents by their description, so set one');
  }
  return problems;
}

export interface SubAgentProblem {
  id: string;
  reason: string;
}

/**
 * Checks the sub-agents an agent (or a session) selects, against the agents as they are now: one
 * entry per offending id (unknown, itself, a cycle, or not composable and why).
 */
export function subAgentProblems(
  ownerId: string | undefined,
  subAgentIds: readonly string[],
  lookup: (id: string) => AgentDefinition | undefined,
): SubAgentProblem[] {
  const problems: SubAgentProblem[] = [];
  const seen = new Set<string>();
  for (const id of subAgentIds) {
    if (seen.has(id)) {
      problems.push({ id, reason: `${id} is listed twice; list each sub-agent once` });
      continue;
    }
    seen.add(id);
    if (ownerId !== undefined && id === ownerId) {
      problems.push({ id, reason: 'an agent cannot be its own sub-agent; remove it from sub_agents' });
      continue;
    }
    const agent = lookup(id);
    if (!agent) {
      problems.push({ id, reason: `no agent with id ${id} exists; create it first or remove it from the list` });
      continue;
    }
    if (ownerId !== undefined && agent.sub_agents.includes(ownerId)) {
      problems.push({
        id,
        reason: `${id} lists ${ownerId} as its own sub-agent, so ${ownerId} -> ${id} -> ${ownerId} would be a cycle; remove one of the two links`,
      });
      continue;
    }
    for (const reason of compositionProblems(agent)) problems.push({ id, reason: `${id} ${reason}` });
  }
  return problems;
}

/**
 * issue 43: what a remote agent may not set. Its service runs it, with that service's prompt, model, tools
 * and team: a field that would configure it here would be silently ignored, so it is refused instead.
 */
export function remoteAgentProblems(fields: AgentFields): string[] {
  if (!fields.remote) return [];
  const set: string[] = [];
  if (fields.system_message.content.trim()) set.push('system_message.content');
  if (fields.model) set.push('model');
  if (fields.tools.custom.length + fields.tools.builtin.length + fields.tools.excluded_builtin.length > 0) set.push('tools');
  if (fields.mcp_servers.length > 0) set.push('mcp_servers');
  if (fields.sub_agents.length > 0) set.push('sub_agents');
  if (fields.hooks?.length) set.push('hooks');
  if (fields.workspace) set.push('workspace');
  if (fields.permission_policy) set.push('permission_policy');
  return set.map((field) => `${field} configures an agent that runs here, but this agent runs on its remote service (remote.a2a); clear ${field}`);
}

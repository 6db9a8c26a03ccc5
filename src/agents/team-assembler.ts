import { Injectable } from '@nestjs/common';
import type { CustomAgentConfig } from '../copilot-cli';
import type { AgentDefinition } from './agent-definition';
import { type SubAgentProblem, subAgentProblems } from './agent-eligibility';
import { AgentLibrary } from './agent-library';
import { McpServerRegistry } from './mcp-server-registry';

/**
 * spec: agent-teams, Field Mapping "App Agent -> SDK CustomAgentConfig". id -> name, name ->
 * displayName, description, system_message.content -> prompt, tools.builtin -> tools (when
 * non-empty), mcp_servers -> full configs, infer always true. Beyond the spec: `model`, which the
 * real CLI honours per agent (the sub-agent's turns go to that model).
 */
/** A team member as the CLI's CustomAgentConfig (the wire type lives with the CLI protocol). */
export function toCustomAgentConfig(agent: AgentDefinition, mcpServers: Record<string, unknown>): CustomAgentConfig {
  const config: CustomAgentConfig = {
    name: agent.id,
    displayName: agent.name,
    description: agent.description,
    prompt: agent.system_message.content,
    infer: true,
  };
  if (agent.tools.builtin.length > 0) config.tools = [...agent.tools.builtin];
  if (agent.mcp_servers.length > 0) config.mcpServers = mcpServers;
  if (agent.model) config.model = agent.model;
  return config;
}

export type TeamAssembly =
  | { ok: true; mainAgent?: AgentDefinition; customAgents: CustomAgentConfig[]; mcpServers: Record<string, unknown> }
  | { ok: false; problems: SubAgentProblem[] };

/** FR-4 and FR-5: checks a session's team against the agents as they are now, then maps it. */
@Injectable()
export class TeamAssembler {
  constructor(
    private readonly library: AgentLibrary,
    private readonly mcp: McpServerRegistry,
  ) {}

  /** `sessionMcpServers`: the session's own MCP server names (FR-3's MCP selector), resolved with the team. */
  async assemble(agentId: string | undefined, subAgentIds: readonly string[], sessionMcpServers: readonly string[] = []): Promise<TeamAssembly> {
    const problems: SubAgentProblem[] = [];
    // One read of the main agent and its team: the checks and the mapping see the same agents.
    const lookup = await this.library.lookup(agentId === undefined ? subAgentIds : [agentId, ...subAgentIds]);
    const mainAgent = agentId === undefined ? undefined : lookup(agentId);
    if (agentId !== undefined && !mainAgent) {
      problems.push({ id: agentId, reason: `no agent with id ${agentId} exists; create it or start the session without agentId` });
    }
    if (mainAgent?.remote) {
      problems.push({
        id: mainAgent.id,
        reason: `${mainAgent.id} runs on its remote service (${mainAgent.remote.a2a}), not in a session here; start a run of it (agent_run, POST /api/runs) instead`,
      });
    }
    problems.push(...subAgentProblems(agentId, subAgentIds, lookup));
    // issue 43: a remote member is reached through agent_run only; the CLI has nothing of it to run itself.
    const members = subAgentIds.map(lookup).filter((a): a is NonNullable<typeof a> => a !== undefined && !a.remote);
    const customAgents: CustomAgentConfig[] = [];
    for (const agent of members) {
      const { servers, missing, fileProblem } = this.mcp.resolve(agent.mcp_servers);
      if (fileProblem) problems.push({ id: agent.id, reason: `${agent.id} uses MCP servers but the MCP config cannot be read (${fileProblem})` });
      else if (missing.length > 0) {
        problems.push({
          id: agent.id,
          reason: `${agent.id} uses MCP server${missing.length > 1 ? 's' : ''} ${missing.join(', ')} that ${this.mcp.describeSource()} does not define; add ${missing.length > 1 ? 'them' : 'it'} there or remove ${missing.length > 1 ? 'them' : 'it'} from the agent's mcp_servers`,
        });
      }
      customAgents.push(toCustomAgentConfig(agent, servers));
    }
    const session = this.mcp.resolve(sessionMcpServers);
    if (session.fileProblem)
      problems.push({ id: agentId ?? 'session', reason: `the session uses MCP servers but the MCP config cannot be read (${session.fileProblem})` });
    else if (session.missing.length > 0) {
      problems.push({
        id: agentId ?? 'session',
        reason: `the session uses MCP server${session.missing.length > 1 ? 's' : ''} ${session.missing.join(', ')} that ${this.mcp.describeSource()} no longer defines; add ${session.missing.length > 1 ? 'them' : 'it'} there or start a session without ${session.missing.length > 1 ? 'them' : 'it'}`,
      });
    }
    if (problems.length > 0) return { ok: false, problems: dedupe(problems) };
    return { ok: true, mainAgent, customAgents, mcpServers: session.servers };
  }
}

function dedupe(problems: SubAgentProblem[]): SubAgentProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(`${p.id}\u0000${p.reason}`) && seen.add(`${p.id}\u0000${p.reason}`));
}

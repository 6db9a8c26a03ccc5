import type { CopilotCliConfig } from '../config';
import { type CliCustomAgent, MODEL_ROUTE_BASE_URL, type ModelRouteState, type ToolDefinition } from '../copilot-cli';
import type { CustomAgentConfig, SessionConfig, ToolSpec } from './session-config';

/**
 * spec: subagent-tool-dispatch, Tool Advertisement. An agent with a `tools` allowlist gets the full
 * definitions of those session tools in `toolDefinitions`; an agent without one gets none.
 */
export function toCliCustomAgent(agent: CustomAgentConfig, sessionTools: readonly ToolSpec[]): CliCustomAgent {
  const cliAgent: CliCustomAgent = { name: agent.name, prompt: agent.prompt };
  if (agent.displayName !== undefined) cliAgent.displayName = agent.displayName;
  if (agent.description !== undefined) cliAgent.description = agent.description;
  if (agent.mcpServers !== undefined) cliAgent.mcpServers = agent.mcpServers;
  if (agent.infer !== undefined) cliAgent.infer = agent.infer;
  if (agent.model !== undefined) cliAgent.model = agent.model;
  if (agent.tools !== undefined && agent.tools !== null) {
    cliAgent.tools = [...agent.tools];
    cliAgent.toolDefinitions = agent.tools
      .map((name) => sessionTools.find((t) => t.name === name))
      .filter((t): t is ToolSpec => t !== undefined)
      .map(toToolDefinition);
  }
  return cliAgent;
}

export function toToolDefinition(tool: ToolSpec): ToolDefinition {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

/**
 * Params shared by session.create and session.resume: the CLI forgets tools and provider on restart.
 * `customAgents` is what the session runs with: its inline agents plus its team's mapped sub-agents.
 */
export function cliSessionParams(
  sessionId: string,
  config: SessionConfig,
  cli: CopilotCliConfig,
  customAgents: readonly CustomAgentConfig[] = config.customAgents,
  mcpServers: Record<string, unknown> = {},
  modelRoute: ModelRouteState = { routed: false, reason: 'not asked' },
): Record<string, unknown> {
  const params: Record<string, unknown> = {
    sessionId,
    model: config.model,
    // Tool paths are relative to it; a read approved by policy reaches nothing outside it (read-scope.ts).
    // issue 42: a session with a workspace works in its own git worktree.
    workingDirectory: config.workspace?.path ?? cli.workingDirectory,
    tools: config.tools.map(toToolDefinition),
    customAgents: customAgents.map((a) => toCliCustomAgent(a, config.tools)),
    requestPermission: true,
    requestUserInput: true,
    // The CLI sends hooks.invoke only to a session created with hooks on: on when a handler is registered.
    hooks: (config.hooks ?? []).length > 0,
    includeSubAgentStreamingEvents: true,
    // Without it the CLI 1.0.x asks the provider for non-streaming completions and chokes on SSE answers.
    streaming: true,
  };
  if (config.systemMessage) params.systemMessage = config.systemMessage;
  if (config.availableTools) params.availableTools = availableTools(config, customAgents);
  if (config.excludedTools && config.excludedTools.length > 0) params.excludedTools = [...config.excludedTools];
  if (Object.keys(mcpServers).length > 0) params.mcpServers = mcpServers;
  if (cli.provider && modelRoute.routed) {
    // Switchboard answers every model call: the CLI learns the wire shape, never the address or the key.
    params.provider = { type: cli.provider.type, baseUrl: MODEL_ROUTE_BASE_URL };
  } else if (cli.provider) {
    params.provider = {
      type: cli.provider.type,
      baseUrl: cli.provider.baseUrl,
      ...(cli.provider.apiKey ? { apiKey: cli.provider.apiKey } : {}),
    };
  }
  return params;
}

/** The CLI's tool that launches a custom agent: a team lead needs it whatever its built-in allowlist says. */
export const CLI_SUB_AGENT_TOOL = 'task';

/**
 * The CLI's `availableTools` is an allowlist over every tool, the session's own included: the built-ins
 * chosen, plus the session's own tools (webhooks, delegation) and, when it has a team, the sub-agent tool,
 * so narrowing the built-ins never takes away what the session was given.
 */
function availableTools(config: SessionConfig, customAgents: readonly CustomAgentConfig[]): string[] {
  const names = [...(config.availableTools ?? []), ...config.tools.map((t) => t.name)];
  if (customAgents.length > 0) names.push(CLI_SUB_AGENT_TOOL);
  return [...new Set(names)];
}

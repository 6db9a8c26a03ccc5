import { type HookSpec, type LibraryAgent, delegationByDefault, type McpServerRegistry } from '../../../agents';
import { InvalidInputError } from '../../../common';
import type { SwitchboardConfig } from '../../../config';
import type { BuiltinToolCatalog } from '../../builtin-tool-catalog';
import { type CreateSessionRequest, DEFAULT_PERMISSION_POLICY, type PermissionPolicy, type SessionConfig } from '../../session-config';
import { toBudget } from '../../session-budget';

/** What resolving a request's configuration reads: the CLI defaults, the built-in groups and the operator's MCP registry. */
export interface SessionConfigSources {
  config: SwitchboardConfig;
  builtins: BuiltinToolCatalog;
  mcp: McpServerRegistry;
}

/** Which of the main agent's session defaults apply: all for a caller's session; none for a run's, which the delegation engine configures. */
export type AgentDefaults = 'apply' | 'skip';

/**
 * The session's configuration from the request and its main agent, which gives the defaults: its model,
 * its system message (FR: mode honoured), its sub_agents, its built-in tool allowlist and exclusions, and
 * its MCP servers (FR-3's selectors change them). Refused (400) before anything is recorded.
 */
export function requestedSessionConfig(
  request: CreateSessionRequest,
  main: LibraryAgent | undefined,
  sources: SessionConfigSources,
  agentDefaults: AgentDefaults = 'apply',
): SessionConfig {
  const defaults = agentDefaults === 'apply' ? main : undefined;
  const agentMessage =
    main && main.system_message.content.trim().length > 0 ? { mode: main.system_message.mode, content: main.system_message.content } : undefined;
  const systemMessage = request.systemMessage ?? agentMessage;
  const delegation = request.delegation ?? (defaults ? delegationByDefault(defaults) : false);
  const delegationTools = delegation ? sources.builtins.group('delegation') : [];
  const clash = delegationTools.find((t) => request.tools.some((own) => own.name === t.name));
  if (clash) throw new InvalidInputError(`tools defines ${clash.name}, which delegation provides; remove one of them or set delegation: false`);
  return {
    model: request.model ?? main?.model ?? sources.config.cli.defaultModel,
    ...(systemMessage ? { systemMessage } : {}),
    tools: [...request.tools, ...delegationTools],
    customAgents: request.customAgents,
    permissionPolicy: requestedPermissionPolicy(request, defaults),
    delegation,
    ...(request.agentId ? { agentId: request.agentId } : {}),
    ...(main ? { agentName: main.name } : {}),
    subAgents: request.subAgents ?? main?.sub_agents ?? [],
    hooks: mergedHooks(main?.hooks, request.hooks),
    ...optionalList('availableTools', request.availableTools ?? (main && main.tools.builtin.length > 0 ? main.tools.builtin : undefined)),
    ...optionalList('excludedTools', request.excludedTools ?? main?.tools.excluded_builtin),
    ...optionalList('mcpServers', knownMcpServers(request.mcpServers, sources.mcp) ?? main?.mcp_servers),
    ...optionalBudget(request.budget ?? defaults?.budget),
  };
}

/** The request's policy, else the agent's default (its snake_case fields mapped), else the service's default. */
export function requestedPermissionPolicy(request: CreateSessionRequest, defaults: LibraryAgent | undefined): PermissionPolicy {
  return request.permissionPolicy ?? agentPermissionPolicyOf(defaults);
}

/** An agent's `permission_policy` as a session's, else the service's default. */
export function agentPermissionPolicyOf(agent: Pick<LibraryAgent, 'permission_policy'> | undefined): PermissionPolicy {
  const policy = agent?.permission_policy;
  if (!policy) return DEFAULT_PERMISSION_POLICY;
  return {
    allowKinds: [...policy.allow_kinds],
    approveOwnTools: true,
    ...(policy.ask_kinds.length > 0 ? { askKinds: [...policy.ask_kinds] } : {}),
    ...(policy.ask_tools.length > 0 ? { askTools: [...policy.ask_tools] } : {}),
  };
}

function optionalBudget(input: CreateSessionRequest['budget']): Pick<SessionConfig, 'budget'> {
  const budget = toBudget(input);
  return budget ? { budget } : {};
}

/** Names picked for the session must be in the operator's registry now: refused before anything is recorded. */
function knownMcpServers(names: string[] | undefined, mcp: McpServerRegistry): string[] | undefined {
  if (names === undefined) return undefined;
  const { missing, fileProblem } = mcp.resolve(names);
  if (fileProblem) throw new InvalidInputError(`mcpServers: the MCP config cannot be read (${fileProblem})`);
  if (missing.length > 0) {
    const known = mcp.entries().servers.map((s) => s.name);
    throw new InvalidInputError(
      `mcpServers: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not in ${mcp.describeSource()}; it has ${known.length > 0 ? known.join(', ') : 'none'}`,
    );
  }
  return names;
}

/** `{ [key]: list }` for a list worth storing; an empty exclusion or server list is the same as none. */
function optionalList<K extends string>(key: K, list: readonly string[] | undefined): Partial<Record<K, string[]>> {
  if (list === undefined || (key !== 'availableTools' && list.length === 0)) return {};
  return { [key]: [...list] } as Partial<Record<K, string[]>>;
}

/** The main agent's hooks, then the request's (a run's: its owner's), each (type, url) once. */
export function mergedHooks(agentHooks: readonly HookSpec[] | undefined, requestHooks: readonly HookSpec[]): HookSpec[] {
  const seen = new Set<string>();
  return [...(agentHooks ?? []), ...requestHooks].filter((hook) => {
    const key = `${hook.type} ${hook.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

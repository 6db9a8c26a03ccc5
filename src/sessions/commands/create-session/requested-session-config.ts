import type { HookSpec } from '../../../agents/agent-hooks';
import type { LibraryAgent } from '../../../agents/agent-library';
import type { McpServerRegistry } from '../../../agents/mcp-server-registry';
import { InvalidInputError } from '../../../common/domain-error';
import type { SwitchboardConfig } from '../../../config/switchboard-config';
import type { BuiltinToolCatalog } from '../../builtin-tool-catalog';
import type { CreateSessionRequest, SessionConfig } from '../../session-config';
import { toBudget } from '../../session-budget';

/** What resolving a request's configuration reads: the CLI defaults, the built-in groups and the operator's MCP registry. */
export interface SessionConfigSources {
  config: SwitchboardConfig;
  builtins: BuiltinToolCatalog;
  mcp: McpServerRegistry;
}

/**
 * The session's configuration from the request and its main agent, which gives the defaults: its model,
 * its system message (FR: mode honoured), its sub_agents, its built-in tool allowlist and exclusions, and
 * its MCP servers (FR-3's selectors change them). Refused (400) before anything is recorded.
 */
export function requestedSessionConfig(request: CreateSessionRequest, main: LibraryAgent | undefined, sources: SessionConfigSources): SessionConfig {
  const agentMessage =
    main && main.system_message.content.trim().length > 0 ? { mode: main.system_message.mode, content: main.system_message.content } : undefined;
  const systemMessage = request.systemMessage ?? agentMessage;
  const delegationTools = request.delegation ? sources.builtins.group('delegation') : [];
  const clash = delegationTools.find((t) => request.tools.some((own) => own.name === t.name));
  if (clash) throw new InvalidInputError(`tools defines ${clash.name}, which delegation: true provides; remove one of them`);
  return {
    model: request.model ?? main?.model ?? sources.config.cli.defaultModel,
    ...(systemMessage ? { systemMessage } : {}),
    tools: [...request.tools, ...delegationTools],
    customAgents: request.customAgents,
    permissionPolicy: request.permissionPolicy,
    ...(request.agentId ? { agentId: request.agentId } : {}),
    subAgents: request.subAgents ?? main?.sub_agents ?? [],
    hooks: mergedHooks(main?.hooks, request.hooks),
    ...optionalList('availableTools', request.availableTools ?? (main && main.tools.builtin.length > 0 ? main.tools.builtin : undefined)),
    ...optionalList('excludedTools', request.excludedTools ?? main?.tools.excluded_builtin),
    ...optionalList('mcpServers', knownMcpServers(request.mcpServers, sources.mcp) ?? main?.mcp_servers),
    ...(request.budget ? { budget: toBudget(request.budget) } : {}),
  };
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

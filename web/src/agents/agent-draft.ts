import type { AgentFieldsInput, AgentQuery } from '../gql/graphql';
import { chosenPolicyOf, budgetOf, type SessionSettingsDraft, settingsOf, workspaceOf } from '../session-settings';

/** A hook webhook as the form holds it; `failure` '' is the service's default for the type. */
export interface HookDraft {
  type: string;
  url: string;
  failure: '' | 'open' | 'closed';
}

/** The editor's form: every field of an agent, as the inputs hold it. */
export interface AgentDraft {
  id: string;
  name: string;
  description: string;
  icon: string;
  mode: 'append' | 'replace';
  content: string;
  model: string;
  builtin: string[];
  custom: string[];
  excludedBuiltin: string[];
  mcpServers: string[];
  subAgents: string[];
  allowedAgents: string[] | null;
  excludedAgents: string[] | null;
  hooks: HookDraft[];
  /** What its sessions get unless started otherwise: delegation (undefined: automatic), policy, budget. */
  sessionDefaults: SessionSettingsDraft;
  /** issue 43: the A2A card URL of an agent that lives on another service; '' : it runs here. */
  remoteA2a: string;
}

export const emptyDraft = (): AgentDraft => ({
  id: '',
  name: '',
  description: '',
  icon: '',
  mode: 'append',
  content: '',
  model: '',
  builtin: [],
  custom: [],
  excludedBuiltin: [],
  mcpServers: [],
  subAgents: [],
  allowedAgents: null,
  excludedAgents: null,
  hooks: [],
  sessionDefaults: settingsOf(undefined, 'as-set'),
  remoteA2a: '',
});

export function draftOf(agent: NonNullable<AgentQuery['agent']>): AgentDraft {
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    icon: agent.icon,
    mode: agent.systemMessage.mode === 'replace' ? 'replace' : 'append',
    content: agent.systemMessage.content,
    model: agent.model ?? '',
    builtin: agent.tools.builtin,
    custom: agent.tools.custom,
    excludedBuiltin: agent.tools.excludedBuiltin,
    mcpServers: agent.mcpServers,
    subAgents: agent.subAgents,
    allowedAgents: agent.allowedAgents ?? null,
    excludedAgents: agent.excludedAgents ?? null,
    hooks: (agent.hooks ?? []).map((h) => ({ type: h.type, url: h.url, failure: h.failure === 'open' || h.failure === 'closed' ? h.failure : '' })),
    sessionDefaults: settingsOf(agent, 'as-set'),
    remoteA2a: agent.remoteA2a ?? '',
  };
}

/** What the API takes; the delegation policy lists and the hooks go back as loaded unless edited, so a save never drops them. */
export function inputOf(draft: AgentDraft): AgentFieldsInput {
  const remote = draft.remoteA2a.trim();
  // issue 43: a remote agent's prompt, model, tools, team and session settings are its service's; none is sent.
  if (remote) {
    return {
      name: draft.name,
      description: draft.description,
      icon: draft.icon,
      remoteA2a: remote,
      allowedAgents: draft.allowedAgents,
      excludedAgents: draft.excludedAgents,
      budget: budgetOf(draft.sessionDefaults.budget).budget ?? null,
    };
  }
  return {
    name: draft.name,
    description: draft.description,
    icon: draft.icon,
    systemMessage: { mode: draft.mode, content: draft.content },
    model: draft.model.trim() ? draft.model.trim() : null,
    tools: { builtin: draft.builtin, custom: draft.custom, excludedBuiltin: draft.excludedBuiltin },
    mcpServers: draft.mcpServers,
    subAgents: draft.subAgents,
    allowedAgents: draft.allowedAgents,
    excludedAgents: draft.excludedAgents,
    hooks: draft.hooks.length > 0 ? draft.hooks.map((h) => ({ type: h.type, url: h.url.trim(), ...(h.failure ? { failure: h.failure } : {}) })) : null,
    delegation: draft.sessionDefaults.delegation ?? null,
    permissionPolicy: chosenPolicyOf(draft.sessionDefaults),
    budget: budgetOf(draft.sessionDefaults.budget).budget ?? null,
    workspace: workspaceOf(draft.sessionDefaults.workspace),
    remoteA2a: null,
  };
}

/** A problem path of the service ("system_message.content", "tools.custom.0") -> the form field it belongs to. */
export function fieldOfProblem(path: string): string {
  if (path.startsWith('system_message')) return 'content';
  if (path.startsWith('tools.custom')) return 'custom';
  if (path.startsWith('tools.builtin')) return 'builtin';
  if (path.startsWith('tools.excluded_builtin')) return 'excludedBuiltin';
  if (path.startsWith('mcp_servers')) return 'mcpServers';
  if (path.startsWith('sub_agents')) return 'subAgents';
  if (path.startsWith('allowed_agents') || path.startsWith('excluded_agents')) return 'policy';
  if (path.startsWith('hooks')) return 'hooks';
  if (path.startsWith('remote')) return 'remoteA2a';
  if (path.startsWith('delegation') || path.startsWith('permission_policy') || path.startsWith('budget') || path.startsWith('workspace'))
    return 'sessionDefaults';
  return path.split('.')[0] || 'form';
}

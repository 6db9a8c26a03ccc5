import type { AgentFieldsInput, AgentQuery } from '../gql/graphql';

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
  };
}

/** What the API takes; the delegation policy lists are passed through unchanged so a save never drops them. */
export function inputOf(draft: AgentDraft): AgentFieldsInput {
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
  return path.split('.')[0] || 'form';
}

import type { Choice } from '../ui/ChoiceList';

/** An agent's tool settings, as the library stores them. */
export interface AgentTools {
  builtin: readonly string[];
  excludedBuiltin: readonly string[];
}

/**
 * FR-3's Tools selector: one box per built-in tool the CLI is known to offer, plus any the agent names
 * that the list does not know (newer CLIs add tools). Checked = the main agent may use it.
 */
export function builtinToolChoices(known: readonly string[], tools: AgentTools): Choice[] {
  const names = [...new Set([...known, ...tools.builtin])];
  return names.map((name) => ({ value: name, label: name }));
}

/** What the agent's own settings give the session: its allowlist, or every known tool but the excluded. */
export function defaultBuiltinTools(known: readonly string[], tools: AgentTools): string[] {
  if (tools.builtin.length > 0) return [...tools.builtin];
  return known.filter((name) => !tools.excludedBuiltin.includes(name));
}

/** FR-3's MCP selector: the operator's registry; a picked name it does not have is flagged. */
export function mcpServerChoices(servers: ReadonlyArray<{ name: string; type: string }>, selected: readonly string[]): Choice[] {
  const choices: Choice[] = servers.map((s) => ({ value: s.name, label: s.name, hint: s.type }));
  for (const name of selected) {
    if (!servers.some((s) => s.name === name))
      choices.push({ value: name, label: name, problem: 'not in the MCP registry: the session cannot start with it' });
  }
  return choices;
}

export interface SessionToolOverrides {
  availableTools?: string[];
  excludedTools?: string[];
  mcpServers?: string[];
}

/**
 * What createSession must be told so the session runs with the boxes as checked; nothing when they are
 * still the agent's own (the service applies those itself). An agent without an allowlist keeps every
 * tool but the unchecked ones, tools newer than this list included; an agent with one gets exactly
 * the checked tools.
 */
export function sessionToolOverrides({
  known,
  tools,
  agentMcpServers,
  checkedTools,
  checkedMcpServers,
}: {
  known: readonly string[];
  tools: AgentTools;
  agentMcpServers: readonly string[];
  checkedTools: readonly string[];
  checkedMcpServers: readonly string[];
}): SessionToolOverrides {
  const overrides: SessionToolOverrides = {};
  if (!sameSet(checkedTools, defaultBuiltinTools(known, tools))) {
    if (tools.builtin.length > 0) {
      overrides.availableTools = [...checkedTools];
      overrides.excludedTools = [];
    } else {
      overrides.excludedTools = known.filter((name) => !checkedTools.includes(name));
    }
  }
  if (!sameSet(checkedMcpServers, agentMcpServers)) overrides.mcpServers = [...checkedMcpServers];
  return overrides;
}

/** What a session runs with, read off its stored config (`Session.config`). */
export interface SessionTools {
  /** Undefined: every built-in tool. */
  availableTools?: string[];
  excludedTools: string[];
  mcpServers: string[];
}

export function sessionToolsOf(config: unknown): SessionTools {
  const record = config && typeof config === 'object' ? (config as Record<string, unknown>) : {};
  const list = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);
  return { availableTools: list(record.availableTools), excludedTools: list(record.excludedTools) ?? [], mcpServers: list(record.mcpServers) ?? [] };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((v) => right.has(v));
}

/**
 * The built-in tools the real Copilot CLI (1.0.102) advertises to its model, read off the capture in
 * shared/reference (v3-sync-subagent.model-requests.jsonl). Suggestions for an agent's `tools.builtin`
 * allowlist only: a name not listed here is still accepted, since newer CLIs add tools.
 */
export const KNOWN_BUILTIN_TOOLS: readonly string[] = [
  'bash',
  'create',
  'edit',
  'glob',
  'grep',
  'list_agents',
  'list_bash',
  'lookup_secret',
  'read_agent',
  'read_bash',
  'semantic_code_search',
  'skill',
  'sql',
  'stop_bash',
  'task',
  'view',
  'web_fetch',
  'write_agent',
];

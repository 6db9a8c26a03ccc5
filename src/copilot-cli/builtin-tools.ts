import { Injectable, Logger } from '@nestjs/common';
import { CopilotCliConnection } from './copilot-cli-connection';

/**
 * The fallback when the CLI cannot be asked: the built-in tools the Copilot CLI 1.0.102 offers a
 * Switchboard session's model (its `tools.list` and the session tools below). Suggestions for an agent's `tools.builtin` allowlist only: a name
 * not listed is still accepted, since newer CLIs add tools.
 */
export const KNOWN_BUILTIN_TOOLS: readonly string[] = [
  'ask_user',
  'bash',
  'create',
  'edit',
  'glob',
  'grep',
  'list_agents',
  'list_bash',
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

/**
 * Tools a protocol-3 CLI adds to each session, which `tools.list` (the session-independent ones)
 * does not name: `ask_user` because Switchboard's sessions answer user input (`requestUserInput`),
 * `sql` for the session's own store, `semantic_code_search` for its workspace. Read off what the real
 * CLI offers a session's model: session-tools.e2e-spec fails when a CLI offers one the picker lacks.
 */
const SESSION_TOOLS_OF_PROTOCOL_3 = ['ask_user', 'semantic_code_search', 'sql'];

/** How long the picker waits for the CLI before it shows the fallback list. */
const TOOLS_LIST_TIMEOUT_MS = 10_000;

export interface BuiltinToolNames {
  names: readonly string[];
  /** cli: what the installed CLI said; fallback: KNOWN_BUILTIN_TOOLS (the CLI could not be asked). */
  source: 'cli' | 'fallback';
}

/**
 * The installed CLI's built-in tools (`tools.list` over JSON-RPC), asked once and kept for the
 * process's life (a CLI does not change its tools while it runs; an upgrade restarts the service).
 * While the CLI cannot be asked, the hand list; the next call asks again.
 */
@Injectable()
export class BuiltinToolList {
  private readonly logger = new Logger(BuiltinToolList.name);
  private listed?: readonly string[];
  private asking?: Promise<BuiltinToolNames>;

  constructor(private readonly cli: CopilotCliConnection) {}

  names(): Promise<BuiltinToolNames> {
    if (this.listed) return Promise.resolve({ names: this.listed, source: 'cli' });
    this.asking ??= this.ask().finally(() => (this.asking = undefined));
    return this.asking;
  }

  private async ask(): Promise<BuiltinToolNames> {
    try {
      const answer = await this.cli.request<unknown>('tools.list', {}, TOOLS_LIST_TIMEOUT_MS);
      const names = toolNamesOf(answer);
      if (names.length === 0) throw new Error('tools.list answered no tool names');
      const sessionTools = this.cli.status().protocolVersion === 3 ? SESSION_TOOLS_OF_PROTOCOL_3 : [];
      this.listed = [...new Set([...names, ...sessionTools])].sort();
      return { names: this.listed, source: 'cli' };
    } catch (error) {
      this.logger.warn({ err: error }, 'could not ask the Copilot CLI for its tools (tools.list); the built-in list is the fallback');
      return { names: KNOWN_BUILTIN_TOOLS, source: 'fallback' };
    }
  }
}

/** The names in a `tools.list` answer (`{tools: [{name, description, ...}]}`); anything else gives none. */
export function toolNamesOf(answer: unknown): string[] {
  const tools = typeof answer === 'object' && answer !== null ? (answer as { tools?: unknown }).tools : undefined;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) => {
    const name = typeof tool === 'object' && tool !== null ? (tool as { name?: unknown }).name : undefined;
    return typeof name === 'string' && /^[\w.-]{1,128}$/.test(name) ? [name] : [];
  });
}

import type { ParentSession } from '../child-sessions/child-session-resolver';
import type { SessionConfig, ToolSpec } from './session-config';
import type { SessionStatus } from './session.events';

/** A session Switchboard owns: its configuration (tools, agents, policy) and where it stands. */
export class LiveSession implements ParentSession {
  private readonly toolsByName: Map<string, ToolSpec>;

  constructor(
    readonly sessionId: string,
    readonly config: SessionConfig,
    public status: SessionStatus,
    /** The CLI generation the session was created or resumed on; another generation means it must resume. */
    public cliGeneration: number,
  ) {
    this.toolsByName = new Map(config.tools.map((t) => [t.name, t]));
  }

  agentToolAllowlist(agentName: string): readonly string[] | null | undefined {
    return this.config.customAgents.find((a) => a.name === agentName)?.tools;
  }

  hasTool(toolName: string): boolean {
    return this.toolsByName.has(toolName);
  }

  tool(toolName: string): ToolSpec | undefined {
    return this.toolsByName.get(toolName);
  }
}

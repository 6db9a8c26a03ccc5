import type { CustomAgentConfig, SessionConfig, ToolSpec } from './session-config';
import type { SessionStatus } from './session.events';

/**
 * A session Switchboard owns: its configuration (tools, agents, policy) and where it stands. It is the
 * child-session resolver's ParentSession structurally (checked where child-sessions uses it), so sessions
 * does not import child-sessions.
 */
export class LiveSession {
  private readonly toolsByName: Map<string, ToolSpec>;

  /** What the CLI was given: the inline agents plus the team's sub-agents as mapped at the last start. */
  customAgents: CustomAgentConfig[];

  /**
   * Whether the CLI ever created it (`session.started` recorded). False when the service died between
   * recording `session.created` and the CLI's answer: resuming then creates it from the recorded configuration.
   */
  cliCreated = true;

  constructor(
    readonly sessionId: string,
    public config: SessionConfig,
    public status: SessionStatus,
    /** The CLI generation the session was created or resumed on; another generation means it must resume. */
    public cliGeneration: number,
    teamAgents: CustomAgentConfig[] = [],
  ) {
    this.toolsByName = new Map(config.tools.map((t) => [t.name, t]));
    this.customAgents = [...config.customAgents, ...teamAgents];
  }

  agentToolAllowlist(agentName: string): readonly string[] | null | undefined {
    return this.customAgents.find((a) => a.name === agentName)?.tools;
  }

  hasTool(toolName: string): boolean {
    return this.toolsByName.has(toolName);
  }

  tool(toolName: string): ToolSpec | undefined {
    return this.toolsByName.get(toolName);
  }
}

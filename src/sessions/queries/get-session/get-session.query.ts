import { Query } from '@nestjs/cqrs';
import type { PermissionPolicy } from '../../session-config';

export interface SessionView {
  sessionId: string;
  status: string;
  statusReason: string | null;
  model: string;
  protocolVersion: number;
  config: unknown;
  /** The folder it works in (this instance's SWITCHBOARD_WORKING_DIRECTORY): tool paths are relative to it, and a read approved by policy stays inside it. */
  workingDirectory: string;
  agentId: string | null;
  subAgents: string[];
  /** What the CLI named it, else its first message, shortened; null before any message. */
  title: string | null;
  /** Its last message, shortened to one line; null before any. */
  preview: string | null;
  /** The delegated run whose thread this session is (`sub-agent-<runId>`); null for a chat. */
  runId: string | null;
  /** Whether its main agent may start runs (agent_run / agent_stop / agent_output). */
  delegation: boolean;
  permissionPolicy: PermissionPolicy;
  lastPosition: number;
  createdAt: string;
  updatedAt: string;
  /** The CLI's own sub-agent launches (its `task` tool) in this session; `subAgents` is the selected team. */
  subAgentLaunches: Array<{
    toolCallId: string;
    agentName: string;
    childSessionId: string;
    status: string;
    error: string | null;
    startedAt: string;
    endedAt: string | null;
    totalTokens: number | null;
    totalToolCalls: number | null;
    durationMs: number | null;
  }>;
}

export class GetSession extends Query<SessionView> {
  constructor(readonly sessionId: string) {
    super();
  }
}

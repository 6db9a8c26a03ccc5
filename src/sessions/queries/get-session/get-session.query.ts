import { Query } from '@nestjs/cqrs';

export interface SessionView {
  sessionId: string;
  status: string;
  statusReason: string | null;
  model: string;
  protocolVersion: number;
  config: unknown;
  agentId: string | null;
  subAgents: string[];
  lastPosition: number;
  createdAt: string;
  updatedAt: string;
  subagents: Array<{
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

import { Query } from '@nestjs/cqrs';

export interface SessionListItem {
  sessionId: string;
  status: string;
  /** Why it is interrupted or failed (null otherwise). */
  statusReason: string | null;
  model: string;
  /** The library agent it runs as; null for a session built from an inline config. */
  agentId: string | null;
  /** The library agents its main agent may delegate to, as chosen now (the last sub-agents change). */
  subAgents: string[];
  createdAt: string;
  /** Its last event: the session's last activity. */
  updatedAt: string;
}

export class ListSessions extends Query<{ sessions: SessionListItem[] }> {
  constructor(
    readonly status: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}

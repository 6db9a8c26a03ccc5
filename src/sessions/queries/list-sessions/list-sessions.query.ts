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
  /** What the CLI named it, else its first message, shortened; null before any message. */
  title: string | null;
  /** Its last message, shortened to one line; null before any. */
  preview: string | null;
  /** The delegated run whose thread this session is (`sub-agent-<runId>`); null for a chat. */
  runId: string | null;
  createdAt: string;
  /** Its last event: the session's last activity. */
  updatedAt: string;
}

export interface ListSessionsFilter {
  status?: string;
  /** Words the title, the preview or the agent's id contain (any case). */
  search?: string;
  /** Also the sessions delegated runs execute on (each is shown under its run); left out by default. */
  includeRunSessions?: boolean;
}

export class ListSessions extends Query<{ sessions: SessionListItem[] }> {
  constructor(
    readonly filter: ListSessionsFilter,
    readonly limit: number,
  ) {
    super();
  }
}

import { Query } from '@nestjs/cqrs';

export interface AuditFilter {
  sessionId?: string;
  runId?: string;
  agentId?: string;
  toolName?: string;
  decision?: string;
  eventType?: string;
  /** ISO timestamps: `from` inclusive, `to` exclusive. */
  from?: string;
  to?: string;
}

export interface AuditEntry {
  position: number;
  streamId: string;
  eventType: string;
  actor: string | null;
  correlationId: string | null;
  causationId: string | null;
  recordedAt: string;
  sessionId: string | null;
  runId: string | null;
  agentId: string | null;
  toolName: string | null;
  decision: string | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `after` for the next page; equals the request's `after` when there is nothing more. */
  nextAfter: number;
  hasMore: boolean;
}

/**
 * The audit log in global order, filtered, paged by global position: positions only grow, so entries
 * recorded between two pages land after the cursor and no page skips or repeats one.
 */
export class ListAuditLog extends Query<AuditPage> {
  constructor(
    readonly filter: AuditFilter,
    readonly after: number,
    readonly limit: number,
  ) {
    super();
  }
}

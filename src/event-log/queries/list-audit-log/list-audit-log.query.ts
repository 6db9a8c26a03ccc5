import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../common';

export interface AuditFilter {
  sessionId?: string;
  runId?: string;
  agentId?: string;
  toolName?: string;
  decision?: string;
  eventType?: string;
  /** issue 27: who did it, by actor id (`metadata.by.id`; `api` for events recorded before). */
  actor?: string;
  actorKind?: Actor['kind'];
  /** The kind of event: the part of its type before the first dot (`permission`, `approval`, `cli`…). */
  eventKind?: string;
  /** Leave out the CLI's own events (`cli.*`): its stream of deltas and turns drowns what people decided. */
  hideCli?: boolean;
  /** ISO timestamps: `from` inclusive, `to` exclusive. */
  from?: string;
  to?: string;
}

export interface AuditEntry {
  position: number;
  streamId: string;
  eventType: string;
  /** The client string the event recorded (`console`, `api`, `switchboard`, `copilot-cli`...), as before issue 27. */
  actor: string | null;
  /** issue 27: who did it (`metadata.by`, else the api key). */
  actorKind: Actor['kind'];
  actorId: string;
  actorName: string;
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
  /**
   * `newestFirst`: from the newest entry down; `after` is then the position to go below (0: the
   * newest), and `nextAfter` the last (lowest) position of the page.
   */
  constructor(
    readonly filter: AuditFilter,
    readonly after: number,
    readonly limit: number,
    readonly newestFirst = false,
  ) {
    super();
  }
}

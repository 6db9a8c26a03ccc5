import { actorOfMetadata } from '../../common/actor';
import type { ReadModelDatabase } from '../../database/read-model-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, run } from '../../projections/projection';
import { auditSubjectOf } from './audit-subject';

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/**
 * Async: who caused each event (the client string `actor`, and issue 27's actor: `metadata.by`, else api), in which correlation, and what it concerns (session, run, agent, tool,
 * decision: see auditSubjectOf), for audit queries that must not slow appends.
 */
@ReadModelProjection()
export class AuditLogProjection extends PerEventProjection {
  readonly name = 'audit-log';
  readonly mode = 'async';
  readonly tables = ['auditLog'] as const;

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    const by = actorOfMetadata(event.metadata);
    yield* run(
      db.orm
        .insert(db.tables.auditLog)
        .values({
          globalPosition: event.globalPosition,
          streamId: event.streamId,
          eventType: event.type,
          actor: text(event.metadata.actor),
          actorKind: by.kind,
          actorId: by.id,
          actorName: by.name,
          correlationId: text(event.metadata.correlationId),
          causationId: text(event.metadata.causationId),
          recordedAt: event.recordedAt,
          ...auditSubjectOf(event),
        })
        .onConflictDoNothing(),
    );
  }
}

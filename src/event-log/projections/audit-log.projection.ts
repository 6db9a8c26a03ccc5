import { actorOfMetadata } from '../../common';
import type { ReadModelDatabase } from '../../database';
import type { StoredEvent } from '../../event-store';
import { sql } from 'drizzle-orm';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, runPrepared } from '../../projections';
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
    // A row for every event of the log: the insert is built once per connection (runPrepared), not per event.
    yield* runPrepared(db, 'audit_log_insert', insertAuditRow, {
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
    });
  }
}

/** The row insert with a placeholder per column (named as the values above); a row already there is kept. */
function insertAuditRow(db: ReadModelDatabase) {
  const { auditLog } = db.tables;
  return db.orm
    .insert(auditLog)
    .values({
      globalPosition: sql.placeholder('globalPosition'),
      streamId: sql.placeholder('streamId'),
      eventType: sql.placeholder('eventType'),
      actor: sql.placeholder('actor'),
      actorKind: sql.placeholder('actorKind'),
      actorId: sql.placeholder('actorId'),
      actorName: sql.placeholder('actorName'),
      correlationId: sql.placeholder('correlationId'),
      causationId: sql.placeholder('causationId'),
      recordedAt: sql.placeholder('recordedAt'),
      sessionId: sql.placeholder('sessionId'),
      runId: sql.placeholder('runId'),
      agentId: sql.placeholder('agentId'),
      toolName: sql.placeholder('toolName'),
      decision: sql.placeholder('decision'),
    })
    .onConflictDoNothing();
}

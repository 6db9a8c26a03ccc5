import { sql } from 'drizzle-orm';
import { auditLog } from '../../database/schema';
import { type Orm, preparedPerConnection } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type Projection, ReadModelProjection } from '../../event-store/projection';
import { auditSubjectOf } from './audit-subject';

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/**
 * Async: who caused each event, in which correlation, and what it concerns (session, run, agent, tool,
 * decision: see auditSubjectOf), for audit queries that must not slow appends.
 */
@ReadModelProjection()
export class AuditLogProjection implements Projection {
  readonly name = 'audit-log';
  readonly mode = 'async';
  readonly tables = [auditLog];

  apply(event: StoredEvent, orm: Orm): void {
    insertFor(orm).run({
      globalPosition: event.globalPosition,
      streamId: event.streamId,
      eventType: event.type,
      actor: text(event.metadata.actor),
      correlationId: text(event.metadata.correlationId),
      causationId: text(event.metadata.causationId),
      recordedAt: event.recordedAt,
      ...auditSubjectOf(event),
    });
  }
}

/** Every event of the log passes through here. */
const insertFor = preparedPerConnection((orm: Orm) => {
  const p = (name: string) => sql.placeholder(name);
  return orm
    .insert(auditLog)
    .values({
      globalPosition: p('globalPosition'),
      streamId: p('streamId'),
      eventType: p('eventType'),
      actor: p('actor'),
      correlationId: p('correlationId'),
      causationId: p('causationId'),
      recordedAt: p('recordedAt'),
      sessionId: p('sessionId'),
      runId: p('runId'),
      agentId: p('agentId'),
      toolName: p('toolName'),
      decision: p('decision'),
    })
    .onConflictDoNothing()
    .prepare();
});

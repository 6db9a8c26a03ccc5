import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, asc, desc, gt, gte, like, lt, not, sql, type SQL } from 'drizzle-orm';
import { type Actor, ACTOR_KINDS } from '../../../common';
import { equalsWhenGiven, ReadModelDatabase, whenGiven } from '../../../database';
import { AuditEntry, AuditPage, ListAuditLog } from './list-audit-log.query';

@QueryHandler(ListAuditLog)
export class ListAuditLogHandler implements IQueryHandler<ListAuditLog, AuditPage> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ filter, after, limit, newestFirst }: ListAuditLog): Promise<AuditPage> {
    const { auditLog } = this.db.tables;
    const conditions: Array<SQL | undefined> = [
      newestFirst ? (after > 0 ? lt(auditLog.globalPosition, after) : undefined) : gt(auditLog.globalPosition, after),
      equalsWhenGiven(auditLog.sessionId, filter.sessionId),
      equalsWhenGiven(auditLog.runId, filter.runId),
      equalsWhenGiven(auditLog.agentId, filter.agentId),
      equalsWhenGiven(auditLog.toolName, filter.toolName),
      equalsWhenGiven(auditLog.decision, filter.decision),
      equalsWhenGiven(auditLog.eventType, filter.eventType),
      equalsWhenGiven(auditLog.actorId, filter.actor),
      equalsWhenGiven(auditLog.actorKind, filter.actorKind),
      // A prefix compared as text, not LIKE: a kind's underscore would be LIKE's one-character wildcard.
      whenGiven(filter.eventKind, (kind) => sql`substr(${auditLog.eventType}, 1, ${kind.length + 1}) = ${`${kind}.`}`),
      filter.hideCli ? not(like(auditLog.eventType, 'cli.%')) : undefined,
      // recorded_at is ISO 8601 text on both databases: text order is time order.
      whenGiven(filter.from, (from) => gte(auditLog.recordedAt, from)),
      whenGiven(filter.to, (to) => lt(auditLog.recordedAt, to)),
    ];
    // One row more than asked tells whether another page exists without a COUNT.
    const rows = await this.db.orm
      .select()
      .from(auditLog)
      .where(and(...conditions))
      .orderBy(newestFirst ? desc(auditLog.globalPosition) : asc(auditLog.globalPosition))
      .limit(limit + 1);
    const hasMore = rows.length > limit;
    const entries: AuditEntry[] = rows
      .slice(0, limit)
      .map(({ globalPosition, actorKind, ...rest }) => ({ position: globalPosition, actorKind: actorKindOf(actorKind), ...rest }));
    return { entries, nextAfter: entries.length ? entries[entries.length - 1].position : after, hasMore };
  }
}

/** The column holds what the projection wrote (an Actor kind); anything else reads as a key, as the api actor is. */
function actorKindOf(kind: string): Actor['kind'] {
  return (ACTOR_KINDS as readonly string[]).includes(kind) ? (kind as Actor['kind']) : 'key';
}

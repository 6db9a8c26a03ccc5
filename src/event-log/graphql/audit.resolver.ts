import { Args, Int, Query, Resolver } from '@nestjs/graphql';
import { QueryBus } from '@nestjs/cqrs';
import { ACTOR_KINDS, InvalidInputError } from '../../common';
import { type AuditFilter, ListAuditLog } from '../queries/list-audit-log/list-audit-log.query';
import { ListEvents } from '../queries/list-events/list-events.query';
import type { StoredEvent } from '../../event-store';
import { StoredEventModel } from './event.model';
import { ListSize, presentFields } from '../../graphql-api';
import { AuditConnection, AuditFilterInput } from './audit.model';

const AUDIT_FIRST = new ListSize('first', 1, 1000, 100);

/** Audit cursors are global positions: they only grow, so paging is stable across new entries. */
function positionOf(cursor: string | undefined): number {
  if (cursor === undefined || cursor === null) return 0;
  if (!/^\d{1,15}$/.test(cursor))
    throw new InvalidInputError(
      `after: ${JSON.stringify(cursor)} is not a cursor this API gave out (pass the previous page's next_cursor over REST, pageInfo.endCursor over GraphQL)`,
    );
  return Number(cursor);
}

@Resolver()
export class AuditResolver {
  @Query(() => StoredEventModel, { nullable: true, description: "One event of the log by its position: an audit entry's payload (its data and metadata)" })
  async auditEvent(@Args('position', { type: () => Int }) position: number): Promise<StoredEvent | null> {
    if (!Number.isSafeInteger(position) || position < 1) throw new InvalidInputError('position is a global position: an integer from 1');
    const [event] = (await this.queryBus.execute(new ListEvents(position - 1, 1))).events;
    return event?.globalPosition === position ? event : null;
  }

  constructor(private readonly queryBus: QueryBus) {}

  @Query(() => AuditConnection, {
    description: 'The audit log in global order, filtered, paged by cursor',
    complexity: AUDIT_FIRST.complexity,
  })
  async auditLog(
    @Args('filter', { type: () => AuditFilterInput, nullable: true }) filter?: AuditFilterInput,
    @Args('first', { type: () => Int, defaultValue: AUDIT_FIRST.fallback, description: AUDIT_FIRST.description }) first = AUDIT_FIRST.fallback,
    @Args('after', { type: () => String, nullable: true, description: 'pageInfo.endCursor of the previous page' }) after?: string,
    @Args('newestFirst', { type: () => Boolean, defaultValue: false, description: 'from the newest entry down' }) newestFirst = false,
  ) {
    const present = presentFields(filter);
    if (present.eventKind !== undefined && !/^[a-z_]{1,64}$/.test(present.eventKind)) {
      throw new InvalidInputError('eventKind is the part of an event type before its first dot: lower-case letters and underscores');
    }
    if (present.actorKind !== undefined && !(ACTOR_KINDS as readonly string[]).includes(present.actorKind)) {
      throw new InvalidInputError('actorKind is one of user, key, agent, system');
    }
    const page = await this.queryBus.execute(
      new ListAuditLog(present as AuditFilter, positionOf(after ?? undefined), AUDIT_FIRST.check(first), newestFirst),
    );
    return {
      edges: page.entries.map((node) => ({ cursor: String(node.position), node })),
      pageInfo: { hasNextPage: page.hasMore, endCursor: page.entries.length ? String(page.nextAfter) : (after ?? null) },
    };
  }
}

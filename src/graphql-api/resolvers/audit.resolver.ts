import { Args, Int, Query, Resolver } from '@nestjs/graphql';
import { QueryBus } from '@nestjs/cqrs';
import { InvalidInputError } from '../../common/domain-error';
import { ListAuditLog } from '../../event-log/queries/list-audit-log/list-audit-log.query';
import { ListSize, presentFields } from '../input-validation';
import { AuditConnection, AuditFilterInput } from '../models/audit.model';

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
  constructor(private readonly queryBus: QueryBus) {}

  @Query(() => AuditConnection, {
    description: 'The audit log in global order, filtered, paged by cursor',
    complexity: AUDIT_FIRST.complexity,
  })
  async auditLog(
    @Args('filter', { type: () => AuditFilterInput, nullable: true }) filter?: AuditFilterInput,
    @Args('first', { type: () => Int, defaultValue: AUDIT_FIRST.fallback, description: AUDIT_FIRST.description }) first = AUDIT_FIRST.fallback,
    @Args('after', { type: () => String, nullable: true, description: 'pageInfo.endCursor of the previous page' }) after?: string,
  ) {
    const page = await this.queryBus.execute(new ListAuditLog(presentFields(filter), positionOf(after ?? undefined), AUDIT_FIRST.check(first)));
    return {
      edges: page.entries.map((node) => ({ cursor: String(node.position), node })),
      pageInfo: { hasNextPage: page.hasMore, endCursor: page.entries.length ? String(page.nextAfter) : (after ?? null) },
    };
  }
}

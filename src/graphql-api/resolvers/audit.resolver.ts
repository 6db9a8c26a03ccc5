import { Args, Int, Query, Resolver } from '@nestjs/graphql';
import { QueryBus } from '@nestjs/cqrs';
import { InvalidInputError } from '../../common/domain-error';
import { ListAuditLog } from '../../event-log/queries/list-audit-log/list-audit-log.query';
import { inRange, presentFields } from '../input-validation';
import { AuditConnection, AuditFilterInput } from '../models/audit.model';

/** Audit cursors are global positions: they only grow, so paging is stable across new entries. */
function positionOf(cursor: string | undefined): number {
  if (cursor === undefined || cursor === null) return 0;
  if (!/^\d{1,15}$/.test(cursor)) throw new InvalidInputError(`after: ${JSON.stringify(cursor)} is not a cursor this API gave out (pass the previous page's next_cursor over REST, pageInfo.endCursor over GraphQL)`);
  return Number(cursor);
}

@Resolver()
export class AuditResolver {
  constructor(private readonly queryBus: QueryBus) {}

  @Query(() => AuditConnection, {
    description: 'The audit log in global order, filtered, paged by cursor',
    complexity: ({ args, childComplexity }) => (args.first ?? 100) * childComplexity,
  })
  async auditLog(
    @Args('filter', { type: () => AuditFilterInput, nullable: true }) filter?: AuditFilterInput,
    @Args('first', { type: () => Int, defaultValue: 100, description: '1..1000' }) first = 100,
    @Args('after', { type: () => String, nullable: true, description: 'pageInfo.endCursor of the previous page' }) after?: string,
  ) {
    const page = await this.queryBus.execute(new ListAuditLog(presentFields(filter), positionOf(after ?? undefined), inRange('first', first, 1, 1000)));
    return {
      edges: page.entries.map((node) => ({ cursor: String(node.position), node })),
      pageInfo: { hasNextPage: page.hasMore, endCursor: page.entries.length ? String(page.nextAfter) : (after ?? null) },
    };
  }
}

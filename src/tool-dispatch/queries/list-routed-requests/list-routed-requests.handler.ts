import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, asc, eq, gt } from 'drizzle-orm';
import { ReadModelDatabase } from '../../../database';
import { routedRequestView } from '../routed-request-view';
import { ListRoutedRequests } from './list-routed-requests.query';

@QueryHandler(ListRoutedRequests)
export class ListRoutedRequestsHandler implements IQueryHandler<ListRoutedRequests> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ sessionId, after, limit }: ListRoutedRequests) {
    const { routedRequests } = this.db.tables;
    const rows = await this.db.orm
      .select()
      .from(routedRequests)
      .where(and(eq(routedRequests.parentSessionId, sessionId), gt(routedRequests.globalPosition, after)))
      .orderBy(asc(routedRequests.globalPosition))
      .limit(limit);
    return {
      requests: rows.map(routedRequestView),
      nextAfter: rows.length ? rows[rows.length - 1].globalPosition : after,
    };
  }
}

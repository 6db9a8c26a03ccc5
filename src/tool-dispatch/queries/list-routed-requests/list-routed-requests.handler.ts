import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, asc, eq, gt } from 'drizzle-orm';
import { ReadModelDatabase } from '../../../database/read-model-database';
import { ListRoutedRequests, RoutedRequestView } from './list-routed-requests.query';

const parse = (v: string | null): unknown => {
  if (v === null) return null;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

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
    const requests: RoutedRequestView[] = rows.map(({ globalPosition, arguments: args, result, ...rest }) => ({
      position: globalPosition,
      ...rest,
      arguments: parse(args),
      result: parse(result),
    }));
    return { requests, nextAfter: rows.length ? rows[rows.length - 1].globalPosition : after };
  }
}

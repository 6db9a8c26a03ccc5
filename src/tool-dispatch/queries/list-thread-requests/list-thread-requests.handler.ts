import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, asc, inArray } from 'drizzle-orm';
import { jsonArrayValues, ReadModelDatabase } from '../../../database';
import type { RoutedRequestView } from '../list-routed-requests/list-routed-requests.query';
import { routedRequestView } from '../routed-request-view';
import { ListThreadRequests } from './list-thread-requests.query';

@QueryHandler(ListThreadRequests)
export class ListThreadRequestsHandler implements IQueryHandler<ListThreadRequests, RoutedRequestView[][]> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ threadIds, kinds }: ListThreadRequests): Promise<RoutedRequestView[][]> {
    if (threadIds.length === 0) return [];
    const { routedRequests } = this.db.tables;
    const rows = await this.db.orm
      .select()
      .from(routedRequests)
      .where(and(inArray(routedRequests.parentSessionId, jsonArrayValues(this.db, threadIds)), inArray(routedRequests.kind, [...kinds])))
      .orderBy(asc(routedRequests.globalPosition));
    const byThread = new Map<string, RoutedRequestView[]>(threadIds.map((id) => [id, []]));
    for (const row of rows) byThread.get(row.parentSessionId)?.push(routedRequestView(row));
    return threadIds.map((id) => byThread.get(id) ?? []);
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, count, desc, eq, gte, inArray, isNotNull, lt, or, type SQL } from 'drizzle-orm';
import { ReadModelDatabase } from '../../../database';
import { ListRuns, RunPage } from './list-runs.query';
import { decodeRunCursor, encodeRunCursor } from './run-cursor';

@QueryHandler(ListRuns)
export class ListRunsHandler implements IQueryHandler<ListRuns, RunPage> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ filter, first, after, withTotal }: ListRuns): Promise<RunPage> {
    const { runs } = this.db.tables;
    const cursor = after === undefined ? undefined : decodeRunCursor(after);
    const matching: Array<SQL | undefined> = [
      filter.status === undefined ? undefined : eq(runs.status, filter.status),
      filter.agentId === undefined ? undefined : eq(runs.agentId, filter.agentId),
      filter.rootRunId === undefined ? undefined : eq(runs.rootRunId, filter.rootRunId),
      filter.startedFrom === undefined ? undefined : gte(runs.startedAt, filter.startedFrom),
      filter.startedTo === undefined ? undefined : lt(runs.startedAt, filter.startedTo),
      filter.statuses === undefined ? undefined : inArray(runs.status, [...filter.statuses]),
      filter.a2aContextId === undefined ? undefined : eq(runs.a2aContextId, filter.a2aContextId),
      filter.startedOverA2a ? isNotNull(runs.a2aContextId) : undefined,
      filter.updatedFrom === undefined ? undefined : gte(runs.updatedAt, filter.updatedFrom),
    ];
    const conditions = [
      ...matching,
      cursor === undefined ? undefined : or(lt(runs.startedAt, cursor.startedAt), and(eq(runs.startedAt, cursor.startedAt), lt(runs.runId, cursor.runId))),
    ];
    const rows = await this.db.orm
      .select()
      .from(runs)
      .where(and(...conditions))
      .orderBy(desc(runs.startedAt), desc(runs.runId))
      .limit(first + 1);
    const page = rows.slice(0, first);
    const last = page[page.length - 1];
    const total = withTotal
      ? (
          await this.db.orm
            .select({ n: count() })
            .from(runs)
            .where(and(...matching))
        )[0].n
      : undefined;
    return {
      runs: page,
      hasNextPage: rows.length > first,
      endCursor: last ? encodeRunCursor(last) : null,
      ...(total === undefined ? {} : { totalCount: Number(total) }),
    };
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import { runs } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { toRunView, type RunView } from '../../run-view';
import { ListRuns } from './list-runs.query';

@QueryHandler(ListRuns)
export class ListRunsHandler implements IQueryHandler<ListRuns, RunView[]> {
  constructor(private readonly database: SqliteDatabase) {}

  async execute({ filter }: ListRuns): Promise<RunView[]> {
    const conditions: SQL[] = [];
    if (filter.status) conditions.push(eq(runs.status, filter.status));
    if (filter.agentId) conditions.push(eq(runs.agentId, filter.agentId));
    if (filter.rootRunId) conditions.push(eq(runs.rootRunId, filter.rootRunId));
    const now = Date.now();
    return this.database.orm
      .select()
      .from(runs)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(runs.startedAt), desc(runs.runId))
      .limit(filter.limit)
      .all()
      .map((row) => toRunView(row, now));
  }
}

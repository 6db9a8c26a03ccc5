import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { asc, inArray, sql } from 'drizzle-orm';
import { subagentInstances } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { ListThreadSubagents, SubagentInstanceRow } from './list-thread-subagents.query';

@QueryHandler(ListThreadSubagents)
export class ListThreadSubagentsHandler implements IQueryHandler<ListThreadSubagents, SubagentInstanceRow[][]> {
  constructor(private readonly database: SqliteDatabase) {}

  async execute({ threadIds }: ListThreadSubagents): Promise<SubagentInstanceRow[][]> {
    if (threadIds.length === 0) return [];
    const rows = this.database.orm
      .select()
      .from(subagentInstances)
      .where(inArray(subagentInstances.parentSessionId, sql`(SELECT value FROM json_each(${JSON.stringify(threadIds)}))`))
      .orderBy(asc(subagentInstances.startedAt))
      .all();
    const byThread = new Map<string, SubagentInstanceRow[]>(threadIds.map((id) => [id, []]));
    for (const row of rows) byThread.get(row.parentSessionId)?.push(row);
    return threadIds.map((id) => byThread.get(id) ?? []);
  }
}

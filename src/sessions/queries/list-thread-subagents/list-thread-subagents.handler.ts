import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { asc, inArray } from 'drizzle-orm';
import { jsonArrayValues, ReadModelDatabase } from '../../../database';
import { ListThreadSubagents, SubagentInstanceRow } from './list-thread-subagents.query';

@QueryHandler(ListThreadSubagents)
export class ListThreadSubagentsHandler implements IQueryHandler<ListThreadSubagents, SubagentInstanceRow[][]> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ threadIds }: ListThreadSubagents): Promise<SubagentInstanceRow[][]> {
    if (threadIds.length === 0) return [];
    const { subagentInstances } = this.db.tables;
    const rows = await this.db.orm
      .select()
      .from(subagentInstances)
      .where(inArray(subagentInstances.parentSessionId, jsonArrayValues(this.db, threadIds)))
      .orderBy(asc(subagentInstances.startedAt));
    const byThread = new Map<string, SubagentInstanceRow[]>(threadIds.map((id) => [id, []]));
    for (const row of rows) byThread.get(row.parentSessionId)?.push(row);
    return threadIds.map((id) => byThread.get(id) ?? []);
  }
}

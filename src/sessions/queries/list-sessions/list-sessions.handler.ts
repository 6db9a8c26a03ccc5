import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { desc, eq, sql } from 'drizzle-orm';
import { sessions } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { ListSessions, SessionListItem } from './list-sessions.query';

@QueryHandler(ListSessions)
export class ListSessionsHandler implements IQueryHandler<ListSessions, { sessions: SessionListItem[] }> {
  constructor(private readonly database: SqliteDatabase) {}

  async execute({ status, limit }: ListSessions) {
    // Only the two config fields a list shows, picked by SQLite: a config can carry large system messages and tools.
    const rows = this.database.orm
      .select({
        sessionId: sessions.sessionId,
        status: sessions.status,
        statusReason: sessions.statusReason,
        model: sessions.model,
        agentId: sql<string | null>`json_extract(${sessions.config}, '$.agentId')`,
        subAgents: sql<string | null>`json_extract(${sessions.config}, '$.subAgents')`,
        createdAt: sessions.createdAt,
        updatedAt: sessions.updatedAt,
      })
      .from(sessions)
      .where(status ? eq(sessions.status, status) : undefined)
      .orderBy(desc(sessions.createdAt))
      .limit(limit)
      .all();
    return { sessions: rows.map((row): SessionListItem => ({ ...row, subAgents: row.subAgents ? (JSON.parse(row.subAgents) as string[]) : [] })) };
  }
}

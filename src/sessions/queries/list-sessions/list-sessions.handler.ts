import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { desc, eq } from 'drizzle-orm';
import { sessions } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { ListSessions, SessionListItem } from './list-sessions.query';

@QueryHandler(ListSessions)
export class ListSessionsHandler implements IQueryHandler<ListSessions, { sessions: SessionListItem[] }> {
  constructor(private readonly database: SqliteDatabase) {}

  async execute({ status, limit }: ListSessions) {
    const rows = this.database.orm
      .select({
        sessionId: sessions.sessionId,
        status: sessions.status,
        model: sessions.model,
        createdAt: sessions.createdAt,
        updatedAt: sessions.updatedAt,
      })
      .from(sessions)
      .where(status ? eq(sessions.status, status) : undefined)
      .orderBy(desc(sessions.createdAt))
      .limit(limit)
      .all();
    return { sessions: rows };
  }
}

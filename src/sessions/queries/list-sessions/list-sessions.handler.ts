import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type AnyColumn, desc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { ReadModelDatabase } from '../../../database/read-model-database';
import { ListSessions, SessionListItem } from './list-sessions.query';

@QueryHandler(ListSessions)
export class ListSessionsHandler implements IQueryHandler<ListSessions, { sessions: SessionListItem[] }> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ status, limit }: ListSessions) {
    const { sessions } = this.db.tables;
    // Only the two config fields a list shows, picked by the database: a config can carry large system
    // messages and tools. The array comes back as JSON text on both (`->>` of an array is its text).
    const [agentId, subAgents] =
      this.db.dialect === 'sqlite'
        ? [sql`json_extract(${sessions.config}, '$.agentId')`, sql`json_extract(${sessions.config}, '$.subAgents')`]
        : [sql`(${sessions.config}::json ->> 'agentId')`, sql`(${sessions.config}::json ->> 'subAgents')`];
    const rows = await this.db.orm
      .select({
        sessionId: sessions.sessionId,
        status: sessions.status,
        statusReason: sessions.statusReason,
        model: sessions.model,
        agentId: sql<string | null>`${agentId}`,
        subAgents: sql<string | null>`${subAgents}`,
        createdAt: sessions.createdAt,
        updatedAt: sessions.updatedAt,
      })
      .from(sessions)
      .where(status ? eq(sessions.status, status) : undefined)
      // Byte by byte, as SQLite compares text (PostgreSQL's locale would skip punctuation); the id breaks
      // ties, so both databases cut a page of sessions created in the same millisecond alike.
      .orderBy(desc(this.byteOrder(sessions.createdAt)), desc(this.byteOrder(sessions.sessionId)))
      .limit(limit);
    return { sessions: rows.map((row): SessionListItem => ({ ...row, subAgents: row.subAgents ? (JSON.parse(row.subAgents) as string[]) : [] })) };
  }

  private byteOrder(column: AnyColumn): SQLWrapper {
    return this.db.dialect === 'sqlite' ? column : sql`${column} collate "C"`;
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, type AnyColumn, desc, eq, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ReadModelDatabase } from '../../../database';
import { RUN_THREAD_PREFIX, runIdOfThread } from '../../../event-store';
import { ListSessions, type ListSessionsFilter, SessionListItem } from './list-sessions.query';

@QueryHandler(ListSessions)
export class ListSessionsHandler implements IQueryHandler<ListSessions, { sessions: SessionListItem[] }> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ filter, limit }: ListSessions) {
    const { sessions } = this.db.tables;
    // Only the two config fields a list shows, picked by the database: a config can carry large system
    // messages and tools. The array comes back as JSON text on both (`->>` of an array is its text).
    const [agentId, subAgents] = this.configFields();
    const rows = await this.db.orm
      .select({
        sessionId: sessions.sessionId,
        status: sessions.status,
        statusReason: sessions.statusReason,
        model: sessions.model,
        agentId: sql<string | null>`${agentId}`,
        subAgents: sql<string | null>`${subAgents}`,
        title: sessions.title,
        preview: sessions.preview,
        createdAt: sessions.createdAt,
        updatedAt: sessions.updatedAt,
      })
      .from(sessions)
      .where(this.whereOf(filter, agentId))
      // Byte by byte, as SQLite compares text (PostgreSQL's locale would skip punctuation); the id breaks
      // ties, so both databases cut a page of sessions created in the same millisecond alike.
      .orderBy(desc(this.byteOrder(sessions.createdAt)), desc(this.byteOrder(sessions.sessionId)))
      .limit(limit);
    return {
      sessions: rows.map((row): SessionListItem => ({
        ...row,
        subAgents: row.subAgents ? (JSON.parse(row.subAgents) as string[]) : [],
        runId: runIdOfThread(row.sessionId) ?? null,
      })),
    };
  }

  private configFields(): [SQL, SQL] {
    const { config } = this.db.tables.sessions;
    return this.db.dialect === 'sqlite'
      ? [sql`json_extract(${config}, '$.agentId')`, sql`json_extract(${config}, '$.subAgents')`]
      : [sql`(${config}::json ->> 'agentId')`, sql`(${config}::json ->> 'subAgents')`];
  }

  private whereOf({ status, search, includeRunSessions }: ListSessionsFilter, agentId: SQL): SQL | undefined {
    const { sessions } = this.db.tables;
    const words = search?.trim();
    return and(
      status ? eq(sessions.status, status) : undefined,
      // A run's session is its run's to show (the run page), not a chat of its own.
      includeRunSessions ? undefined : sql`${sessions.sessionId} NOT LIKE ${`${RUN_THREAD_PREFIX}%`}`,
      words ? or(...[sessions.title, sessions.preview, agentId].map((column) => this.contains(column, words))) : undefined,
    );
  }

  /** Substring match in any case (SQLite's LIKE folds ASCII letters only), the user's `%` and `_` taken literally. */
  private contains(column: SQLWrapper, words: string): SQL {
    const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.db.dialect === 'sqlite' ? sql`${column} LIKE ${pattern} ESCAPE '\\'` : sql`${column} ILIKE ${pattern} ESCAPE '\\'`;
  }

  private byteOrder(column: AnyColumn): SQLWrapper {
    return this.db.dialect === 'sqlite' ? column : sql`${column} collate "C"`;
  }
}

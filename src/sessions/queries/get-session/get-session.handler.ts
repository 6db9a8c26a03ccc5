import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { asc, eq } from 'drizzle-orm';
import { sessions, subagentInstances } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import type { SessionConfig } from '../../session-config';
import { SessionNotFoundError } from '../../session.errors';
import { GetSession, SessionView } from './get-session.query';

@QueryHandler(GetSession)
export class GetSessionHandler implements IQueryHandler<GetSession, SessionView> {
  constructor(private readonly database: SqliteDatabase) {}

  async execute({ sessionId }: GetSession): Promise<SessionView> {
    const { orm } = this.database;
    const row = orm.select().from(sessions).where(eq(sessions.sessionId, sessionId)).get();
    if (!row) throw new SessionNotFoundError(sessionId);
    const subagents = orm
      .select()
      .from(subagentInstances)
      .where(eq(subagentInstances.parentSessionId, sessionId))
      .orderBy(asc(subagentInstances.startedAt))
      .all()
      .map(({ parentSessionId: _parent, ...rest }) => rest);
    const config = JSON.parse(row.config) as SessionConfig;
    return { ...row, config, agentId: config.agentId ?? null, subAgents: config.subAgents ?? [], subagents };
  }
}

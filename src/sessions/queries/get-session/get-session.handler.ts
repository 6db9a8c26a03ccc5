import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type AnyColumn, asc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../../config';
import { ReadModelDatabase } from '../../../database';
import { runIdOfThread } from '../../../event-store';
import type { SessionConfig } from '../../session-config';
import { SessionNotFoundError } from '../../session.errors';
import { GetSession, SessionView } from './get-session.query';

@QueryHandler(GetSession)
export class GetSessionHandler implements IQueryHandler<GetSession, SessionView> {
  constructor(
    private readonly db: ReadModelDatabase,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  async execute({ sessionId }: GetSession): Promise<SessionView> {
    const { orm, tables } = this.db;
    const { sessions, subagentInstances } = tables;
    // Both at once (sessions are never deleted, so the launches of a missing row are none). On PostgreSQL the
    // launches may be one commit newer than the row: each is a committed state, and a view asks no more.
    const [[row], launches] = await Promise.all([
      orm.select().from(sessions).where(eq(sessions.sessionId, sessionId)).limit(1),
      orm
        .select()
        .from(subagentInstances)
        .where(eq(subagentInstances.parentSessionId, sessionId))
        // Byte by byte, as SQLite compares text; the tool call id breaks ties, so both databases list
        // launches of the same instant alike.
        .orderBy(asc(this.byteOrder(subagentInstances.startedAt)), asc(this.byteOrder(subagentInstances.toolCallId))),
    ]);
    if (!row) throw new SessionNotFoundError(sessionId);
    const subAgentLaunches = launches.map(({ parentSessionId: _parent, ...rest }) => rest);
    // Which instance holds it is operational state (the 409 names it), not part of the view.
    const { ownerInstance: _holder, ...fields } = row;
    const config = JSON.parse(row.config) as SessionConfig;
    // issue 42: a session with a workspace works in its own worktree; every other one in the service's one folder.
    const workingDirectory = config.workspace?.path ?? this.config.cli.workingDirectory;
    const runId = runIdOfThread(sessionId) ?? null;
    return {
      ...fields,
      config,
      workingDirectory,
      agentId: config.agentId ?? null,
      subAgents: config.subAgents ?? [],
      delegation: delegationOf(config),
      permissionPolicy: config.permissionPolicy,
      runId,
      subAgentLaunches,
    };
  }

  private byteOrder(column: AnyColumn): SQLWrapper {
    return this.db.dialect === 'sqlite' ? column : sql`${column} collate "C"`;
  }
}

/** Sessions recorded before `delegation` was stored say it by their tools: the built-in agent_run. */
export function delegationOf(config: SessionConfig): boolean {
  return config.delegation ?? config.tools.some((tool) => tool.handler.type === 'builtin' && tool.name === 'agent_run');
}

import { Injectable } from '@nestjs/common';
import { and, desc, eq, or } from 'drizzle-orm';
import { ReadModelDatabase, type ReadTables } from '../database';

/** A row of `subagent_instances`: one CLI-native sub-agent launch inside a session. */
export type SubagentLaunchRow = ReadTables['subagentInstances']['$inferSelect'];

/**
 * The sub-agent launches of a session, for child-sessions (whose projection records them from
 * `subagent.*` events): a launch belongs to the session it ran in, so sessions owns the table's reads.
 */
@Injectable()
export class SubagentLaunchesReadModel {
  constructor(private readonly db: ReadModelDatabase) {}

  /** The launches still running in a session. */
  async runningIn(sessionId: string): Promise<SubagentLaunchRow[]> {
    const { subagentInstances } = this.db.tables;
    return this.db.orm
      .select()
      .from(subagentInstances)
      .where(and(eq(subagentInstances.parentSessionId, sessionId), eq(subagentInstances.status, 'running')));
  }

  /** The session's launch known by `subagentId` (its agentId, or the task tool call that launched it); the latest when relaunched. */
  async launch(sessionId: string, subagentId: string): Promise<SubagentLaunchRow | undefined> {
    const { subagentInstances } = this.db.tables;
    const [row] = await this.db.orm
      .select()
      .from(subagentInstances)
      .where(
        and(
          eq(subagentInstances.parentSessionId, sessionId),
          or(eq(subagentInstances.childSessionId, subagentId), eq(subagentInstances.toolCallId, subagentId)),
        ),
      )
      .orderBy(desc(subagentInstances.startedAt))
      .limit(1);
    return row;
  }
}

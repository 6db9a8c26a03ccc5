import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { ReadModelDatabase, type ReadTables } from '../database/read-model-database';

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
}

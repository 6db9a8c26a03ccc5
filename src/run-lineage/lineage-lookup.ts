import { Injectable } from '@nestjs/common';
import { eq, inArray } from 'drizzle-orm';
import { ReadModelDatabase } from '../database';
import { runIdOfThread } from '../event-store';
import { ancestorIdsOf, type RunRow } from './run-lineage';

/** Where a run sits in its delegation tree: the lineage columns of its `runs` row. */
export type RunPlace = Pick<RunRow, 'runId' | 'agentId' | 'rootRunId' | 'parentRunId' | 'path' | 'ownerThreadId'>;

/** A run's place and what it takes to name its line: the agents from the root run down, the session that started the root. */
export interface Lineage extends RunPlace {
  /** Agent ids of the runs on `path`, root first, this run last (a run the read model lacks is named by its id). */
  agentPath: string[];
  /** The session whose agent started the root run; undefined when the API started it. */
  rootOwnerSessionId?: string;
}

/** The owner of a run that no session started (`POST /api/runs`). */
const API_OWNER = 'api';

/**
 * The one lineage lookup: session (a run's thread `sub-agent-<runId>`) or run → its run, root run and
 * path, from the `runs` read model (an inline projection: a run's row commits with its `run.started`).
 * Approvals and hooks ask here; budgets and the stop cascade read the same rows through `RunsReadModel`.
 * A session that is no run's thread has no run lineage (undefined): its requests are the tree's top.
 */
@Injectable()
export class LineageLookup {
  constructor(private readonly db: ReadModelDatabase) {}

  /** One statement: the run's lineage columns. */
  async placeOf(runId: string): Promise<RunPlace | undefined> {
    const { runs } = this.db.tables;
    const [row] = await this.db.orm
      .select({
        runId: runs.runId,
        agentId: runs.agentId,
        rootRunId: runs.rootRunId,
        parentRunId: runs.parentRunId,
        path: runs.path,
        ownerThreadId: runs.ownerThreadId,
      })
      .from(runs)
      .where(eq(runs.runId, runId))
      .limit(1);
    return row;
  }

  /** The place of the run whose thread the session is. */
  placeOfSession(sessionId: string): Promise<RunPlace | undefined> {
    const runId = runIdOfThread(sessionId);
    return runId ? this.placeOf(runId) : Promise.resolve(undefined);
  }

  /** The run's place, then its ancestors' agents and the root's owner in a second statement (none for a root). */
  async lineageOf(runId: string): Promise<Lineage | undefined> {
    const place = await this.placeOf(runId);
    if (!place) return undefined;
    const ancestors = ancestorIdsOf(place.path);
    const { runs } = this.db.tables;
    const rows =
      ancestors.length === 0
        ? []
        : await this.db.orm
            .select({ runId: runs.runId, agentId: runs.agentId, ownerThreadId: runs.ownerThreadId })
            .from(runs)
            .where(inArray(runs.runId, ancestors));
    const byId = new Map<string, Pick<RunPlace, 'agentId' | 'ownerThreadId'>>(rows.map((r) => [r.runId, r]));
    byId.set(place.runId, place);
    const rootOwner = byId.get(place.rootRunId)?.ownerThreadId;
    return {
      ...place,
      agentPath: [...ancestors, place.runId].map((id) => byId.get(id)?.agentId ?? id),
      ...(rootOwner !== undefined && rootOwner !== API_OWNER ? { rootOwnerSessionId: rootOwner } : {}),
    };
  }

  /** The lineage of the run whose thread the session is. */
  lineageOfSession(sessionId: string): Promise<Lineage | undefined> {
    const runId = runIdOfThread(sessionId);
    return runId ? this.lineageOf(runId) : Promise.resolve(undefined);
  }
}

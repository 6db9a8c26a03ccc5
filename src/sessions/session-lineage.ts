import { Injectable } from '@nestjs/common';

/** Where a session sits in a delegation tree when it is a run's thread: the run, its root, its parent, its path. */
export interface SessionLineage {
  runId: string;
  agentId: string;
  rootRunId: string;
  parentRunId: string | null;
  /** `/<root>/…/<run>/` */
  path: string;
}

export type SessionLineageSource = (sessionId: string) => Promise<SessionLineage | undefined>;

/**
 * A session's run lineage for contexts that sit beside delegation (tool-dispatch's hooks): the
 * delegation engine registers its source, so they need not read the runs read model themselves
 * (run-lineage already reads tool-dispatch's routed requests; the other way round would be a cycle).
 */
@Injectable()
export class SessionLineages {
  private source?: SessionLineageSource;

  register(source: SessionLineageSource): void {
    this.source = source;
  }

  async of(sessionId: string): Promise<SessionLineage | undefined> {
    return this.source?.(sessionId);
  }
}

import { Injectable, OnModuleInit } from '@nestjs/common';
import { runIdOfThread } from '../event-store/stream-ids';
import { RunsReadModel } from '../run-lineage/runs-read-model';
import { SessionLineages } from '../sessions/session-lineage';

/** Tells the sessions' lineage lookup where a run's thread sits in its tree (hooks send and audit it). */
@Injectable()
export class RunSessionLineage implements OnModuleInit {
  constructor(
    private readonly lineages: SessionLineages,
    private readonly runs: RunsReadModel,
  ) {}

  onModuleInit(): void {
    this.lineages.register(async (sessionId) => {
      const runId = runIdOfThread(sessionId);
      const run = runId ? await this.runs.find(runId) : undefined;
      return run ? { runId: run.runId, agentId: run.agentId, rootRunId: run.rootRunId, parentRunId: run.parentRunId, path: run.path } : undefined;
    });
  }
}

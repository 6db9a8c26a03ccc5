import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { RunsReadModel } from '../run-lineage/runs-read-model';
import { RunHandleTable } from './run-handle-table';
import { RunRepository } from './run-repository';

/**
 * spec: recovery. At start no run has an executor yet, so every run still `running` was cut off by a
 * crash or a stop of the service: it becomes `interrupted` with the reason (its owner is told with
 * `run.ended` in the same commit, and reminded at its next turn). Nothing is re-run silently;
 * completed runs keep their output.
 */
@Injectable()
export class RunRecovery implements OnApplicationBootstrap {
  private readonly logger = new Logger(RunRecovery.name);

  constructor(
    private readonly runs: RunsReadModel,
    private readonly repository: RunRepository,
    private readonly handles: RunHandleTable,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const stale = (await this.runs.runningIds()).filter((runId) => !this.handles.has(runId));
    if (stale.length === 0) return;
    const reason = 'Switchboard restarted while the run was running; resume it with agent_run {run_id} (POST /api/runs/:id/resume) or stop it';
    // Concurrently: the appends share group commits.
    await Promise.all(stale.map((runId) => this.repository.decide(runId, { type: 'interrupt', reason }, { actor: 'switchboard' })));
    this.logger.warn({ runs: stale.length }, 'runs without a live executor marked interrupted');
  }
}

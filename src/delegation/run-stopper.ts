import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { RunsReadModel } from '../run-lineage/runs-read-model';
import { RunStateError } from './run.errors';
import type { StoppedBy } from './run.events';
import { RunExecutor } from './run-executor';
import { RunRepository } from './run-repository';

/** How many times the subtree is swept: a child may start a grandchild while the first sweep is on. */
const MAX_SWEEPS = 5;

/**
 * spec: agent_stop cancels a run and every descendant (grandchildren and background ones included).
 * The subtree comes from the lineage path, deepest first; each run records who stopped it. Also stops
 * a run's subtree when the run outlives its policy's timeout.
 */
@Injectable()
export class RunStopper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RunStopper.name);
  private subscription?: Subscription;

  constructor(
    private readonly executor: RunExecutor,
    private readonly repository: RunRepository,
    private readonly runs: RunsReadModel,
  ) {}

  onModuleInit(): void {
    this.subscription = this.executor.timeouts$.subscribe(({ runId, epoch, timeoutMs }) => {
      const state = this.repository.load(runId);
      if (!state || state.status !== 'running' || state.epoch !== epoch) return;
      this.stopTree(runId, { actor: 'switchboard', reason: `timed out after ${timeoutMs} ms (run policy timeout)` }).catch((error: unknown) =>
        this.logger.error({ runId, err: error }, 'could not stop a run that timed out'),
      );
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  /** Stops the run and its running descendants; returns the ids of the runs stopped. */
  async stopTree(runId: string, stoppedBy: StoppedBy): Promise<string[]> {
    const target = this.repository.get(runId);
    if (target.status !== 'running') {
      throw new RunStateError(`Run ${runId} is ${target.status}; there is nothing to stop`);
    }
    const stopped: string[] = [];
    for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
      const running = this.runs.runningSubtreeIds(target.started.path);
      if (running.length === 0) break;
      const results = await Promise.all(running.map((id) => this.executor.stopOne(id, id === runId ? stoppedBy : { ...stoppedBy, cascadeFrom: runId })));
      running.forEach((id, i) => results[i] && stopped.push(id));
    }
    this.logger.log({ runId, stopped: stopped.length, actor: stoppedBy.actor }, 'run subtree stopped');
    return stopped;
  }
}

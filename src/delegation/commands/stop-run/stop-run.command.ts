import { Command } from '@nestjs/cqrs';
import type { RunCaller, RunSummary } from '../../run-caller';

export interface RunStopped extends RunSummary {
  /** Every run the stop reached: the run itself and its running descendants. */
  stopped_runs: string[];
}

/** spec: agent_stop (the tool keeps its name). Cancels a running run; its descendants are cancelled with it. */
export class StopRun extends Command<RunStopped> {
  constructor(
    readonly runId: string,
    readonly caller: RunCaller,
    readonly reason?: string,
  ) {
    super();
  }
}

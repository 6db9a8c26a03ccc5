import { Command } from '@nestjs/cqrs';
import type { RunCaller, RunSummary } from '../../run-caller';

/** spec: agent_output. Reads a run's output (set once it completed) and status. */
export class AgentOutput extends Command<RunSummary> {
  constructor(
    readonly runId: string,
    readonly caller: RunCaller,
  ) {
    super();
  }
}

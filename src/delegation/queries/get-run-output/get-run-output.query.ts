import { Query } from '@nestjs/cqrs';
import type { RunCaller, RunSummary } from '../../run-caller';

/** spec: agent_output (the tool keeps its name). A run's output (set once it completed) and status; it changes nothing. */
export class GetRunOutput extends Query<RunSummary> {
  constructor(
    readonly runId: string,
    readonly caller: RunCaller,
  ) {
    super();
  }
}

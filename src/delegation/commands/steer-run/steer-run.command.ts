import { Command } from '@nestjs/cqrs';
import type { AgentSteered } from '../../../sessions';

export interface RunSteered extends AgentSteered {
  runId: string;
}

/** A person steers a running run: its own session's main agent (the run's agent) gets the message in its next model request. */
export class SteerRun extends Command<RunSteered> {
  constructor(
    readonly runId: string,
    readonly message: string,
    readonly actor: string,
  ) {
    super();
  }
}

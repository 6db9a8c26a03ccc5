import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { assertOwner, type RunSummary, toSummary } from '../../run-caller';
import { RunRepository } from '../../run-repository';
import { AgentOutput } from './agent-output.command';

@CommandHandler(AgentOutput)
export class AgentOutputHandler implements ICommandHandler<AgentOutput, RunSummary> {
  constructor(private readonly repository: RunRepository) {}

  async execute({ runId, caller }: AgentOutput): Promise<RunSummary> {
    const state = this.repository.get(runId);
    assertOwner(state, caller);
    return toSummary(state);
  }
}

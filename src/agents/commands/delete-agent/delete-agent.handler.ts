import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AgentRepository } from '../../agent-repository';
import { DeleteAgent } from './delete-agent.command';

/** Allowed even when other agents use it as a sub-agent: they show the problem on their next read. */
@CommandHandler(DeleteAgent)
export class DeleteAgentHandler implements ICommandHandler<DeleteAgent> {
  constructor(private readonly repository: AgentRepository) {}

  async execute({ id, expectedVersion, actor }: DeleteAgent) {
    await this.repository.handle({ type: 'DeleteAgent', id }, { actor, correlationId: id }, expectedVersion);
    return { id, deleted: true as const };
  }
}

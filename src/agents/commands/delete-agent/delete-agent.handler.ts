import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../event-store/event-store';
import { AgentRepository } from '../../agent-repository';
import { DeleteAgent } from './delete-agent.command';

/** Allowed even when other agents use it as a sub-agent: they show the problem on their next read. */
@CommandHandler(DeleteAgent)
export class DeleteAgentHandler implements ICommandHandler<DeleteAgent> {
  constructor(
    private readonly repository: AgentRepository,
    private readonly store: EventStore,
  ) {}

  async execute({ id, expectedVersion, actor }: DeleteAgent) {
    const append = this.repository.plan({ type: 'DeleteAgent', id }, { actor, correlationId: id }, expectedVersion);
    if (append) await this.store.appendMany([append]);
    return { id, deleted: true as const };
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AgentLibrary } from '../../agent-library';
import { AgentNotFoundError } from '../../agent.errors';
import { GetAgent } from './get-agent.query';

@QueryHandler(GetAgent)
export class GetAgentHandler implements IQueryHandler<GetAgent> {
  constructor(private readonly library: AgentLibrary) {}

  async execute({ id }: GetAgent) {
    const agent = await this.library.find(id);
    if (!agent) throw new AgentNotFoundError(id);
    return this.library.view(agent);
  }
}

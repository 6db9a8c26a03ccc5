import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { type AgentFields, agentFieldsSchema, slugify } from '../../agent-definition';
import { subAgentProblems } from '../../agent-eligibility';
import { AgentLibrary, type AgentView } from '../../agent-library';
import { AgentRepository } from '../../agent-repository';
import { AgentNotFoundError, SubAgentsRejectedError } from '../../agent.errors';
import { CreateAgent } from './create-agent.command';

@CommandHandler(CreateAgent)
export class CreateAgentHandler implements ICommandHandler<CreateAgent, AgentView> {
  constructor(
    private readonly repository: AgentRepository,
    private readonly library: AgentLibrary,
  ) {}

  async execute({ input, actor }: CreateAgent): Promise<AgentView> {
    const { id: givenId, created_at: _c, updated_at: _u, ...rest } = input;
    const fields: AgentFields = agentFieldsSchema.parse(rest);
    const id = givenId ?? slugify(fields.name);
    const problems = subAgentProblems(id, fields.sub_agents, (x) => this.library.find(x));
    if (problems.length > 0) throw new SubAgentsRejectedError(`Agent ${id}`, problems);
    await this.repository.handle({ type: 'CreateAgent', id, fields }, { actor, correlationId: id });
    const saved = this.library.find(id);
    if (!saved) throw new AgentNotFoundError(id);
    return this.library.view(saved);
  }
}

import { Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OutboundUrlGuard } from '../../../outbound';
import { type AgentFields, agentFieldsSchema, slugify } from '../../agent-definition';
import { AgentLibrary, type AgentView } from '../../agent-library';
import { AgentRepository } from '../../agent-repository';
import { assertAgentSavable, savedAgentView } from '../../agent-saving';
import { CreateAgent } from './create-agent.command';

@CommandHandler(CreateAgent)
export class CreateAgentHandler implements ICommandHandler<CreateAgent, AgentView> {
  constructor(
    private readonly repository: AgentRepository,
    private readonly library: AgentLibrary,
    /** Absent in the maintenance commands (operator files); present wherever an API caller saves an agent. */
    @Optional() private readonly outbound?: OutboundUrlGuard,
  ) {}

  async execute({ input, actor }: CreateAgent): Promise<AgentView> {
    const { id: givenId, created_at: _c, updated_at: _u, ...rest } = input;
    const fields: AgentFields = agentFieldsSchema.parse(rest);
    const id = givenId ?? slugify(fields.name);
    await assertAgentSavable(id, fields, this.library, this.outbound);
    await this.repository.handle({ type: 'CreateAgent', id, fields }, { actor, correlationId: id });
    return savedAgentView(this.library, id);
  }
}

import { Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OutboundUrlGuard } from '../../../outbound';
import { AgentLibrary, type AgentView } from '../../agent-library';
import { AgentRepository } from '../../agent-repository';
import { assertAgentSavable, savedAgentView } from '../../agent-saving';
import { AgentNotFoundError } from '../../agent.errors';
import { UpdateAgent } from './update-agent.command';

/**
 * FR-6: saving is refused while the agent names ineligible sub-agents. Changing an agent that others
 * use is allowed; those parents show the problem on their next read (AgentView.sub_agent_problems).
 */
@CommandHandler(UpdateAgent)
export class UpdateAgentHandler implements ICommandHandler<UpdateAgent, AgentView> {
  constructor(
    private readonly repository: AgentRepository,
    private readonly library: AgentLibrary,
    /** Absent in the maintenance commands (operator files); present wherever an API caller saves an agent. */
    @Optional() private readonly outbound?: OutboundUrlGuard,
  ) {}

  async execute({ id, fields, expectedVersion, actor }: UpdateAgent): Promise<AgentView> {
    if (!(await this.library.find(id))) throw new AgentNotFoundError(id);
    await assertAgentSavable(id, fields, this.library, this.outbound);
    await this.repository.handle({ type: 'UpdateAgent', id, fields }, { actor, correlationId: id }, expectedVersion);
    return savedAgentView(this.library, id);
  }
}

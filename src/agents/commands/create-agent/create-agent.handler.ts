import { Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OutboundUrlGuard } from '../../../outbound/outbound-url-guard';
import { hookUrlProblems } from '../../agent-hooks';
import { type AgentFields, agentFieldsSchema, slugify } from '../../agent-definition';
import { subAgentProblems } from '../../agent-eligibility';
import { AgentLibrary, type AgentView } from '../../agent-library';
import { AgentRepository } from '../../agent-repository';
import { AgentEndpointRefusedError, AgentNotFoundError, SubAgentsRejectedError } from '../../agent.errors';
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
    await this.assertHookUrls(fields.hooks);
    const problems = subAgentProblems(id, fields.sub_agents, await this.library.lookup(fields.sub_agents));
    if (problems.length > 0) throw new SubAgentsRejectedError(`Agent ${id}`, problems);
    await this.repository.handle({ type: 'CreateAgent', id, fields }, { actor, correlationId: id });
    // The projection is inline: the row is there once the append resolved.
    const saved = await this.library.find(id);
    if (!saved) throw new AgentNotFoundError(id);
    return this.library.view(saved);
  }

  private async assertHookUrls(hooks: AgentFields['hooks']): Promise<void> {
    if (!this.outbound) return;
    const outbound = this.outbound;
    const problems = await hookUrlProblems(hooks, (url) => outbound.check(url));
    if (problems.length > 0) throw new AgentEndpointRefusedError(problems);
  }
}

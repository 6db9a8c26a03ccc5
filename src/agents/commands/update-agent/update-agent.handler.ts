import { Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OutboundUrlGuard } from '../../../outbound/outbound-url-guard';
import { hookUrlProblems } from '../../agent-hooks';
import type { AgentFields } from '../../agent-definition';
import { subAgentProblems } from '../../agent-eligibility';
import { AgentLibrary, type AgentView } from '../../agent-library';
import { AgentRepository } from '../../agent-repository';
import { AgentEndpointRefusedError, AgentNotFoundError, SubAgentsRejectedError } from '../../agent.errors';
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
    await this.assertHookUrls(fields.hooks);
    const problems = subAgentProblems(id, fields.sub_agents, await this.library.lookup(fields.sub_agents));
    if (problems.length > 0) throw new SubAgentsRejectedError(`Agent ${id}`, problems);
    await this.repository.handle({ type: 'UpdateAgent', id, fields }, { actor, correlationId: id }, expectedVersion);
    // Deleted between the append and this read (another caller): 404 rather than a view of nothing.
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

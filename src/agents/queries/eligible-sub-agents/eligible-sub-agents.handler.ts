import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { subAgentProblems } from '../../agent-eligibility';
import { AgentLibrary } from '../../agent-library';
import { EligibleSubAgents } from './eligible-sub-agents.query';

@QueryHandler(EligibleSubAgents)
export class EligibleSubAgentsHandler implements IQueryHandler<EligibleSubAgents> {
  constructor(private readonly library: AgentLibrary) {}

  async execute({ exclude }: EligibleSubAgents) {
    const views = await this.library.views();
    const byId = new Map(views.map((v) => [v.id, v]));
    // The same rule set as saving: composable, not the excluded agent, and no cycle back to it.
    const agents = views.filter((a) => a.id !== exclude && subAgentProblems(exclude, [a.id], (id) => byId.get(id)).length === 0);
    return { agents };
  }
}

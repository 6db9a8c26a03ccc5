import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AgentLibrary } from '../../agent-library';
import { ListAgents } from './list-agents.query';

@QueryHandler(ListAgents)
export class ListAgentsHandler implements IQueryHandler<ListAgents> {
  constructor(private readonly library: AgentLibrary) {}

  async execute({ composable }: ListAgents) {
    const views = await this.library.views();
    return { agents: composable === undefined ? views : views.filter((a) => a.composable === composable) };
  }
}

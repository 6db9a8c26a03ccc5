import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toAgentFile } from '../../agent-files';
import { AgentLibrary } from '../../agent-library';
import { ExportAgents } from './export-agents.query';

@QueryHandler(ExportAgents)
export class ExportAgentsHandler implements IQueryHandler<ExportAgents> {
  constructor(private readonly library: AgentLibrary) {}

  async execute() {
    return { files: (await this.library.all()).map(({ version: _v, ...agent }) => toAgentFile(agent)) };
  }
}

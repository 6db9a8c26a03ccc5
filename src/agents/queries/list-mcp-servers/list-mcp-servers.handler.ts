import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { McpServerRegistry } from '../../mcp-server-registry';
import { ListMcpServers } from './list-mcp-servers.query';

@QueryHandler(ListMcpServers)
export class ListMcpServersHandler implements IQueryHandler<ListMcpServers> {
  constructor(private readonly registry: McpServerRegistry) {}

  async execute() {
    return this.registry.entries();
  }
}

import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpApiAccess } from './mcp-api.access';
import { McpController } from './mcp.controller';
import { SwitchboardMcpServer } from './mcp-server';

/** issue 43: the MCP server at `/mcp`; the tools are the contexts' own (the `MCP_TOOLS` slot). */
@Module({
  imports: [DiscoveryModule],
  controllers: [McpController],
  providers: [SwitchboardMcpServer, McpApiAccess],
})
export class McpApiModule {}

import { Module } from '@nestjs/common';
import { CopilotCliModule } from '../copilot-cli';
import { AgentLibrary } from './agent-library';
import { AgentRepository } from './agent-repository';
import { AgentsController } from './agents.controller';
import { CreateAgentHandler } from './commands/create-agent/create-agent.handler';
import { DeleteAgentHandler } from './commands/delete-agent/delete-agent.handler';
import { ImportAgentsHandler } from './commands/import-agents/import-agents.handler';
import { UpdateAgentHandler } from './commands/update-agent/update-agent.handler';
import { McpServerRegistry } from './mcp-server-registry';
import { AgentsProjection } from './projections/agents.projection';
import { TeamAssembler } from './team-assembler';
import { CheckAgentDraftHandler } from './queries/check-agent-draft/check-agent-draft.handler';
import { EligibleSubAgentsHandler } from './queries/eligible-sub-agents/eligible-sub-agents.handler';
import { ExportAgentsHandler } from './queries/export-agents/export-agents.handler';
import { GetAgentHandler } from './queries/get-agent/get-agent.handler';
import { ListAgentsHandler } from './queries/list-agents/list-agents.handler';
import { ListMcpServersHandler } from './queries/list-mcp-servers/list-mcp-servers.handler';
import { WatchAgentLibraryHandler } from './queries/watch-agent-library/watch-agent-library.handler';
import { AgentsResolver } from './graphql/agents.resolver';
import { AgentsAccess } from './agents.access';
import { AgentMcpTools } from './mcp/agent-tools';

/** spec: agent-teams. The agent library: event-sourced agents, eligibility, import/export. */
@Module({
  // The GraphQL resolver lists the CLI's built-in tools.
  imports: [CopilotCliModule],
  controllers: [AgentsController],
  providers: [
    AgentMcpTools,
    AgentsAccess,
    AgentsResolver,
    AgentLibrary,
    AgentRepository,
    McpServerRegistry,
    TeamAssembler,
    AgentsProjection,
    CreateAgentHandler,
    UpdateAgentHandler,
    DeleteAgentHandler,
    ImportAgentsHandler,
    ListAgentsHandler,
    GetAgentHandler,
    EligibleSubAgentsHandler,
    ExportAgentsHandler,
    CheckAgentDraftHandler,
    ListMcpServersHandler,
    WatchAgentLibraryHandler,
  ],
  exports: [AgentLibrary, TeamAssembler, McpServerRegistry],
})
export class AgentsModule {}

import { QueryBus } from '@nestjs/cqrs';
import { Contributes } from '../../common';
import { MCP_TOOLS, mcpTool, type McpTool, type McpToolSet } from '../../mcp-api';
import { ListAgents } from '../queries/list-agents/list-agents.query';

/** issue 43: the agent library as an MCP tool: which agents a client can run, and their teams. */
@Contributes(MCP_TOOLS)
export class AgentMcpTools implements McpToolSet {
  readonly tools: McpTool[];

  constructor(queryBus: QueryBus) {
    this.tools = [
      mcpTool({
        name: 'list_agents',
        title: 'List agents',
        description: 'The agents of the library that run_agent can run: id, name, what each does, and the sub-agents it can delegate to.',
        input: {},
        readOnly: true,
        call: async () => {
          const { agents } = await queryBus.execute(new ListAgents());
          const listed = agents.map((agent) => ({
            id: agent.id,
            name: agent.name,
            description: agent.description,
            model: agent.model ?? null,
            subAgents: agent.sub_agents,
          }));
          const lines = listed.map(
            (a) =>
              `- ${a.id} (${a.name})${a.description ? `: ${a.description}` : ''}${a.subAgents.length > 0 ? ` [team: ${a.subAgents.join(', ')}]` : ''}`,
          );
          return { text: lines.length > 0 ? lines.join('\n') : 'The library has no agents yet.', structured: { agents: listed } };
        },
      }),
    ];
  }
}

import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { contributionsTo, graphqlErrorOf, httpStatusOf } from '../common';
import { AccessPolicy, type Principal } from '../identity';
import { MCP_TOOLS, mcpOperation, type McpResourceTemplate, type McpTool, type McpToolSet } from './mcp-tools';

/** What the server tells a client about itself when it connects. */
const INSTRUCTIONS =
  'Switchboard runs teams of AI agents. list_agents shows the agents; run_agent runs one on a prompt and answers ' +
  "with its output (background: true answers at once with the run's id: get_run follows it). Every run is recorded, " +
  'budgeted and approved as the service is set up; list_approvals and decide_approval answer what agents ask for.';

/**
 * The MCP face of the service: every context's tools and resources (the `MCP_TOOLS` slot), each call run
 * for the caller the guard authenticated, under the access rule of its operation. One server per request
 * (the transport is stateless), so nothing of one caller is ever reachable from another's.
 */
@Injectable()
export class SwitchboardMcpServer implements OnModuleInit {
  private readonly logger = new Logger('Mcp');
  private tools: McpTool[] = [];
  private resources: McpResourceTemplate[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly policy: AccessPolicy,
  ) {}

  onModuleInit(): void {
    const sets = contributionsTo<McpToolSet>(this.discovery, MCP_TOOLS);
    this.tools = sets.flatMap((set) => set.tools);
    this.resources = sets.flatMap((set) => set.resources ?? []);
    const names = new Set<string>();
    for (const tool of this.tools) {
      if (names.has(tool.name)) throw new Error(`two contexts offer the MCP tool ${tool.name}: one context owns each tool`);
      names.add(tool.name);
    }
  }

  /** The access table's operations of the tools and resources (each needs a rule, like every route). */
  operations(): string[] {
    return [...this.tools.map((tool) => mcpOperation('tool', tool.name)), ...this.resources.map((r) => mcpOperation('resource', r.name))];
  }

  /** A server for one request by `principal`, its tools and resources registered. */
  serverFor(principal: Principal, version: string): McpServer {
    const server = new McpServer({ name: 'switchboard', title: 'Switchboard', version }, { instructions: INSTRUCTIONS });
    for (const tool of this.tools) {
      server.registerTool(
        tool.name,
        { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.readOnly === true } },
        async (args: Record<string, unknown>, extra): Promise<CallToolResult> => {
          const refusal = this.refusal(principal, mcpOperation('tool', tool.name));
          if (refusal) return toolError(refusal, 'forbidden');
          const token = extra._meta?.progressToken;
          let step = 0;
          const progress = async (message: string) => {
            if (token === undefined) return;
            step += 1;
            await extra
              .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } })
              .catch(() => undefined);
          };
          try {
            const answer = await tool.call(args, { principal, progress, signal: extra.signal });
            return {
              content: [{ type: 'text', text: answer.text }],
              ...(answer.structured ? { structuredContent: answer.structured } : {}),
            };
          } catch (error) {
            const mapped = graphqlErrorOf(error, httpStatusOf, this.logger);
            const code = typeof mapped.extensions.code === 'string' ? mapped.extensions.code : 'error';
            return toolError(mapped.message, code);
          }
        },
      );
    }
    for (const resource of this.resources) {
      server.registerResource(
        resource.name,
        new ResourceTemplate(resource.uriTemplate, { list: undefined }),
        { title: resource.title, description: resource.description, mimeType: 'application/json' },
        async (uri, variables): Promise<ReadResourceResult> => {
          const refusal = this.refusal(principal, mcpOperation('resource', resource.name));
          if (refusal) throw new Error(refusal);
          const flat = Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : value]));
          const body = await resource.read(flat, { principal });
          return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
        },
      );
    }
    return server;
  }

  private refusal(principal: Principal, operation: string): string | undefined {
    const verdict = this.policy.judge(operation, principal);
    return verdict.allowed ? undefined : verdict.message;
  }
}

/** A failed call as MCP has it: a result the model reads (isError), never a protocol error. */
function toolError(message: string, code: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }], structuredContent: { error: { code, message } } };
}

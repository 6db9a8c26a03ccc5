import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CreateTaskRequestHandlerExtra, TaskRequestHandlerExtra } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { contributionsTo, graphqlErrorOf, httpStatusOf } from '../common';
import { AccessPolicy, type Principal } from '../identity';
import { MCP_TOOLS, mcpOperation, type McpResourceTemplate, type McpTool, type McpToolSet } from './mcp-tools';
import { callResultOf, taskOf, ToolTaskStore } from './tool-task-store';

type ToolCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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

  /**
   * A server for one request by `principal`, its tools and resources registered. `taskCall`: the request is a
   * tools/call asking for a task (MCP tasks): a tool offering them answers with its task at once.
   */
  serverFor(principal: Principal, version: string, taskCall = false): McpServer {
    const taskStore = new ToolTaskStore(this.tools, principal, (tool) => this.refusal(principal, mcpOperation('tool', tool.name)));
    const server = new McpServer(
      { name: 'switchboard', title: 'Switchboard', version },
      { instructions: INSTRUCTIONS, capabilities: { tasks: { requests: { tools: { call: {} } }, cancel: {} } }, taskStore },
    );
    for (const tool of this.tools) {
      const config = { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.readOnly === true } };
      const call = (args: Record<string, unknown>, extra: ToolCallExtra) => this.call(tool, principal, args, extra);
      const tasks = tool.tasks;
      if (!tasks) {
        server.registerTool(tool.name, config, call);
        continue;
      }
      // issue 43: MCP tasks (experimental in the SDK and the protocol). Asked for, the tool's task answers at once
      // and the client follows it with tasks/get and tasks/result; not asked for, the call answers whole, as ever.
      server.experimental.tasks.registerToolTask(
        tool.name,
        { ...config, execution: { taskSupport: 'optional' } },
        {
          createTask: async (args: Record<string, unknown>, extra: CreateTaskRequestHandlerExtra) => {
            if (!taskCall) return { task: taskStore.keep(await call(args, extra)) };
            const refusal = this.refusal(principal, mcpOperation('tool', tool.name));
            if (refusal) throw new McpError(ErrorCode.InvalidRequest, `forbidden: ${refusal}`);
            try {
              return { task: taskOf(await tasks.start(args, { principal, progress: async () => undefined, signal: extra.signal })) };
            } catch (error) {
              throw new McpError(ErrorCode.InvalidParams, this.problemOf(error).text);
            }
          },
          getTask: async (_args: unknown, extra: TaskRequestHandlerExtra) => {
            const task = await taskStore.getTask(extra.taskId);
            if (!task) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${extra.taskId}`);
            return task;
          },
          getTaskResult: async (_args: unknown, extra: TaskRequestHandlerExtra) => (await taskStore.getTaskResult(extra.taskId)) as CallToolResult,
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

  /** A tool's call for `principal`: refused under its access rule, its progress told, a failure the model reads. */
  private async call(tool: McpTool, principal: Principal, args: Record<string, unknown>, extra: ToolCallExtra): Promise<CallToolResult> {
    const refusal = this.refusal(principal, mcpOperation('tool', tool.name));
    if (refusal) return toolError(refusal, 'forbidden');
    const token = extra._meta?.progressToken;
    let step = 0;
    const progress = async (message: string) => {
      if (token === undefined) return;
      step += 1;
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(() => undefined);
    };
    try {
      return callResultOf(await tool.call(args, { principal, progress, signal: extra.signal }));
    } catch (error) {
      const problem = this.problemOf(error);
      return toolError(problem.message, problem.code);
    }
  }

  private problemOf(error: unknown): { code: string; message: string; text: string } {
    const mapped = graphqlErrorOf(error, httpStatusOf, this.logger);
    const code = typeof mapped.extensions.code === 'string' ? mapped.extensions.code : 'error';
    return { code, message: mapped.message, text: `${code}: ${mapped.message}` };
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

import type { ZodRawShape, z } from 'zod';
import type { Principal } from '../identity';

/**
 * issue 43: the slot through which each context offers its operations to MCP clients at `/mcp`, the way it
 * offers them to REST and GraphQL from its own folder: a provider of its module marked
 * `@Contributes(MCP_TOOLS)` lists its tools (and resource templates). The MCP server finds them all through
 * discovery; it knows no context. Each tool's access rule is `Mcp.<name>` in the owning context's
 * `<context>.access.ts`, enforced before the tool runs (a refusal is a tool error naming the permission).
 */
export const MCP_TOOLS = 'switchboard:mcp-tools';

/** What a tool gets besides its arguments. */
export interface McpToolContext {
  /** Who is calling (the guard authenticated it as for the API); its actor records what the tool does. */
  readonly principal: Principal;
  /** Tells the client how far a long call is (a progress notification, when the client asked for them). */
  progress(message: string): Promise<void>;
  /** Aborted when the client cancels the call or goes away. */
  readonly signal: AbortSignal;
}

/** A tool's answer: the text a model reads, and the same as structured content for a program. */
export interface McpToolAnswer {
  text: string;
  structured?: Record<string, unknown>;
}

export interface McpTool<Shape extends ZodRawShape = ZodRawShape> {
  /** snake_case, as MCP clients show it to their models. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: Shape;
  /** Reads only (MCP's readOnlyHint): a client may call it without asking its user. */
  readonly readOnly?: boolean;
  call(args: z.infer<z.ZodObject<Shape>>, context: McpToolContext): Promise<McpToolAnswer>;
  /** MCP tasks (a long call the client follows with tasks/get and tasks/result): given, a client may ask for one. */
  readonly tasks?: McpToolTasks<Shape>;
}

/** A task as MCP tells it (its status among MCP's, and a message saying more). */
export interface McpTaskView {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
}

/**
 * What a tool offering MCP tasks does with them. Its tasks are its own durable work (a run), so any request,
 * on any instance, reads them; `find` answers only for a task the caller may see.
 */
export interface McpToolTasks<Shape extends ZodRawShape = ZodRawShape> {
  /** Starts the call's work and answers its task at once. */
  start(args: z.infer<z.ZodObject<Shape>>, context: McpToolContext): Promise<McpTaskView>;
  /** The task now; undefined when it is none of this tool's, or not the caller's. */
  find(taskId: string, context: Pick<McpToolContext, 'principal'>): Promise<McpTaskView | undefined>;
  /** The answer of an ended task, as the tool's call answers. */
  result(taskId: string, context: Pick<McpToolContext, 'principal'>): Promise<McpToolAnswer>;
  cancel(taskId: string, context: Pick<McpToolContext, 'principal'>): Promise<void>;
}

/** A resource family: `uriTemplate` with `{name}` variables (RFC 6570 level 1), read as JSON text. */
export interface McpResourceTemplate {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly uriTemplate: string;
  /** The resource's body; read under the access rule `Mcp.resource.<name>`. */
  read(variables: Record<string, string>, context: Pick<McpToolContext, 'principal'>): Promise<unknown>;
}

/** What a context contributes. */
export interface McpToolSet {
  readonly tools: readonly McpTool[];
  readonly resources?: readonly McpResourceTemplate[];
}

/** A tool with its argument types checked against its schema (the set's list holds them widened). */
export function mcpTool<Shape extends ZodRawShape>(tool: McpTool<Shape>): McpTool {
  // The SDK has checked the arguments against `input` before the call: they are of its type.
  const tasks = tool.tasks;
  return {
    ...tool,
    call: (args, context) => tool.call(args as z.infer<z.ZodObject<Shape>>, context),
    tasks: tasks && { ...tasks, start: (args, context) => tasks.start(args as z.infer<z.ZodObject<Shape>>, context) },
  };
}

/** The operation name of a tool or resource in the access table. */
export function mcpOperation(kind: 'tool' | 'resource', name: string): string {
  return kind === 'tool' ? `Mcp.${name}` : `Mcp.resource.${name}`;
}

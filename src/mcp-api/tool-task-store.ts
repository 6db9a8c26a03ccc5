import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { ErrorCode, McpError, type CallToolResult, type Result, type Task } from '@modelcontextprotocol/sdk/types.js';
import { v7 as uuidv7 } from 'uuid';
import type { Principal } from '../identity';
import type { McpTaskView, McpTool, McpToolAnswer } from './mcp-tools';

/** How often a client is told to ask again (tasks/get), and how often tasks/result looks. */
export const TASK_POLL_MS = 1_000;

/**
 * issue 43: MCP tasks over the tools' own durable work. A task is what a tool's `tasks` make of it (a run for
 * run_agent), read again at each request (the transport is stateless; any instance answers), and only for the
 * caller who may see it. A call made without a task still answers whole: its answer is kept here for the one
 * request, as a task that has completed, since the SDK reads a task-capable tool's answer through its store.
 */
export class ToolTaskStore implements TaskStore {
  private readonly answers = new Map<string, { task: Task; answer: CallToolResult }>();

  constructor(
    private readonly tools: readonly McpTool[],
    private readonly principal: Principal,
    /** Why the caller may not use the tool now (its access rule), undefined when it may: a cancel is a use. */
    private readonly refusalOf: (tool: McpTool) => string | undefined,
  ) {}

  /** A call's whole answer as a completed task of this request. */
  keep(answer: CallToolResult): Task {
    const now = new Date().toISOString();
    const task: Task = { taskId: `call-${uuidv7()}`, status: 'completed', createdAt: now, lastUpdatedAt: now, ttl: null, pollInterval: TASK_POLL_MS };
    this.answers.set(task.taskId, { task, answer });
    return task;
  }

  createTask(): Promise<Task> {
    return Promise.reject(new McpError(ErrorCode.InvalidRequest, 'tasks are created by the tools that offer them (tools/call with task)'));
  }

  async getTask(taskId: string): Promise<Task | null> {
    const kept = this.answers.get(taskId);
    if (kept) return kept.task;
    const found = await this.owned(taskId);
    return found ? taskOf(found.view) : null;
  }

  /** A tool's task keeps its own result (its run's): nothing is stored beside it. */
  async storeTaskResult(): Promise<void> {}

  async getTaskResult(taskId: string): Promise<Result> {
    const kept = this.answers.get(taskId);
    if (kept) return kept.answer;
    const found = await this.owned(taskId);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return callResultOf(await found.tool.result(taskId, { principal: this.principal }));
  }

  /** Only a cancel changes a task from outside: the tool stops its work. */
  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    if (status !== 'cancelled') return;
    const found = await this.owned(taskId);
    if (!found) return;
    const refusal = this.refusalOf(found.owner);
    if (refusal) throw new McpError(ErrorCode.InvalidRequest, `forbidden: ${refusal}`);
    await found.tool.cancel(taskId, { principal: this.principal });
  }

  listTasks(): Promise<{ tasks: Task[] }> {
    return Promise.reject(new Error('listing tasks is not offered: follow each task by the id its tools/call answered'));
  }

  /** The tool whose task it is (for this caller), and the task now. */
  private async owned(taskId: string) {
    for (const tool of this.tools) {
      const view = await tool.tasks?.find(taskId, { principal: this.principal });
      if (view && tool.tasks) return { owner: tool, tool: tool.tasks, view };
    }
    return undefined;
  }
}

export function taskOf(view: McpTaskView): Task {
  return { ...view, ttl: null, pollInterval: TASK_POLL_MS };
}

export function callResultOf(answer: McpToolAnswer): CallToolResult {
  return { content: [{ type: 'text', text: answer.text }], ...(answer.structured ? { structuredContent: answer.structured } : {}) };
}

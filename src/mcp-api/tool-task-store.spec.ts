import type { Principal } from '../identity';
import type { McpTaskView, McpTool } from './mcp-tools';
import { ToolTaskStore } from './tool-task-store';

const principal = { name: 'ci-key' } as Principal;
const AT = '2026-12-07T12:00:00.000Z';

/** A tool whose tasks are a table (the outside world of this spec): `t1` working, `t2` completed. */
function toolWithTasks(cancelled: string[]): McpTool {
  const tasks: Record<string, McpTaskView> = {
    t1: { taskId: 't1', status: 'working', statusMessage: 'Run t1 of lead is running', createdAt: AT, lastUpdatedAt: AT },
    t2: { taskId: 't2', status: 'completed', createdAt: AT, lastUpdatedAt: AT },
  };
  return {
    name: 'run_agent',
    title: 'Run an agent',
    description: '',
    input: {},
    call: async () => ({ text: 'called' }),
    tasks: {
      start: async () => tasks.t1,
      find: async (taskId) => tasks[taskId],
      result: async (taskId) => ({ text: `answer of ${taskId}`, structured: { runId: taskId } }),
      cancel: async (taskId) => void cancelled.push(taskId),
    },
  };
}

describe('ToolTaskStore (issue 43: MCP tasks over the tools’ own work)', () => {
  it("reads a tool's task as MCP's, with how often to ask again, and its answer once ended", async () => {
    const store = new ToolTaskStore([toolWithTasks([])], principal, () => undefined);
    expect(await store.getTask('t1')).toEqual({
      taskId: 't1',
      status: 'working',
      statusMessage: 'Run t1 of lead is running',
      createdAt: AT,
      lastUpdatedAt: AT,
      ttl: null,
      pollInterval: 1000,
    });
    expect(await store.getTaskResult('t2')).toEqual({ content: [{ type: 'text', text: 'answer of t2' }], structuredContent: { runId: 't2' } });
    expect(await store.getTask('nobody')).toBeNull();
    await expect(store.getTaskResult('nobody')).rejects.toThrow('Task not found: nobody');
  });

  it('keeps a whole answer of a call made without a task as a completed task of the request', async () => {
    const store = new ToolTaskStore([], principal, () => undefined);
    const kept = store.keep({ content: [{ type: 'text', text: 'whole' }] });
    expect(kept).toMatchObject({ status: 'completed', taskId: expect.stringMatching(/^call-/) });
    expect(await store.getTask(kept.taskId)).toMatchObject({ taskId: kept.taskId, status: 'completed' });
    expect(await store.getTaskResult(kept.taskId)).toEqual({ content: [{ type: 'text', text: 'whole' }] });
  });

  it("cancels through the tool, under the tool's access rule; lists nothing it cannot", async () => {
    const cancelled: string[] = [];
    await new ToolTaskStore([toolWithTasks(cancelled)], principal, () => undefined).updateTaskStatus('t1', 'cancelled');
    expect(cancelled).toEqual(['t1']);
    const refused = new ToolTaskStore([toolWithTasks(cancelled)], principal, () => 'Mcp.run_agent needs the operate permission');
    await expect(refused.updateTaskStatus('t1', 'cancelled')).rejects.toThrow('forbidden: Mcp.run_agent needs the operate permission');
    await refused.updateTaskStatus('t1', 'working');
    expect(cancelled).toEqual(['t1']);
    await expect(refused.listTasks()).rejects.toThrow(/listing tasks is not offered/);
  });
});

import type { Workspaces } from '../workspaces';
import { WorkspaceCheckpoints } from './workspace-checkpoints';

type Cause = Parameters<Workspaces['checkpoint']>[1];

/** The checkpoints asked for, in order (the git and the store behind them are the workspaces' own tests'). */
function tracked(): { checkpoints: WorkspaceCheckpoints; asked: Array<{ sessionId: string; cause: Cause }> } {
  const asked: Array<{ sessionId: string; cause: Cause }> = [];
  const workspaces = {
    checkpoint: (sessionId: string, cause: Cause) => {
      asked.push({ sessionId, cause });
      return Promise.resolve(undefined);
    },
  } as unknown as Workspaces;
  return { checkpoints: new WorkspaceCheckpoints(workspaces), asked };
}

describe('WorkspaceCheckpoints: what a checkpoint names, read off the CLI’s events', () => {
  it('names the tool, the agent and the model answer that asked for the call', () => {
    const { checkpoints, asked } = tracked();
    const note = (type: string, data: Record<string, unknown>, agentId?: string) =>
      checkpoints.noteCliEvent('s1', { type, data, ...(agentId ? { agentId } : {}) }, 'lead');
    note('assistant.message', { apiCallId: 'chatcmpl-7', toolRequests: [{ toolCallId: 'call_1' }, { toolCallId: 'call_2' }] });
    note('tool.execution_start', { toolCallId: 'call_1', toolName: 'create' });
    note('tool.execution_complete', { toolCallId: 'call_1' });

    expect(asked).toEqual([
      { sessionId: 's1', cause: { cause: 'tool', toolCallId: 'call_1', toolName: 'create', agentName: 'lead', modelResponseId: 'chatcmpl-7' } },
    ]);
  });

  it('names a CLI sub-agent’s call after the sub-agent, and the turn’s end after the session’s agent', () => {
    const { checkpoints, asked } = tracked();
    const note = (type: string, data: Record<string, unknown>, agentId?: string) =>
      checkpoints.noteCliEvent('s1', { type, data, ...(agentId ? { agentId } : {}) }, 'lead');
    note('subagent.started', { toolCallId: 'call_task', agentName: 'writer' }, 'task-1');
    note('assistant.message', { apiCallId: 'chatcmpl-9', toolRequests: [{ toolCallId: 'call_3' }] }, 'task-1');
    note('tool.execution_start', { toolCallId: 'call_3', toolName: 'edit' }, 'task-1');
    note('subagent.completed', { toolCallId: 'call_task' }, 'task-1');
    note('tool.execution_complete', { toolCallId: 'call_3' }, 'task-1');
    note('session.idle', {});

    expect(asked.map((a) => a.cause)).toEqual([
      { cause: 'tool', toolCallId: 'call_3', toolName: 'edit', agentName: 'writer', modelResponseId: 'chatcmpl-9' },
      { cause: 'turn-end', agentName: 'lead' },
    ]);
  });

  it('keeps nothing of a call once it ended, nor of a session it forgot', () => {
    const { checkpoints, asked } = tracked();
    checkpoints.noteCliEvent('s1', { type: 'tool.execution_start', data: { toolCallId: 'c', toolName: 'bash' } }, 'lead');
    checkpoints.forget('s1');
    checkpoints.noteCliEvent('s1', { type: 'tool.execution_complete', data: { toolCallId: 'c' } }, 'lead');
    // The name was forgotten with the session: the checkpoint still names the call and the session's agent.
    expect(asked.map((a) => a.cause)).toEqual([{ cause: 'tool', toolCallId: 'c', agentName: 'lead' }]);
  });
});

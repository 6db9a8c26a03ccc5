import { Role, TaskState } from '@a2a-js/sdk';
import { isSettled, type TaskRun, taskOfRun, taskStateOf } from './task-of-run';

const run = (over: Partial<TaskRun> = {}): TaskRun => ({
  runId: 'r1',
  agentId: 'lead',
  prompt: 'What is the answer?',
  status: 'running',
  output: null,
  error: null,
  startedAt: '2026-12-07T10:00:00.000Z',
  endedAt: null,
  a2aContextId: 'c1',
  ...over,
});
const approval = {
  kind: 'approval' as const,
  approvalId: 'a1',
  askedAt: '2026-12-07T10:00:05.000Z',
  question: 'Lead asks for permission to use shell. Answer approve or deny.',
};
const text = (message: { parts: Array<{ content?: { $case: string; value?: unknown } }> } | undefined) => message?.parts[0]?.content?.value;

describe('a run as an A2A task', () => {
  it('maps run statuses to task states: a running run that waits on a person is INPUT_REQUIRED', () => {
    expect(taskStateOf('completed', undefined)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(taskStateOf('failed', undefined)).toBe(TaskState.TASK_STATE_FAILED);
    expect(taskStateOf('stopped', undefined)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(taskStateOf('running', undefined)).toBe(TaskState.TASK_STATE_WORKING);
    expect(taskStateOf('paused', undefined)).toBe(TaskState.TASK_STATE_WORKING);
    expect(taskStateOf('interrupted', undefined)).toBe(TaskState.TASK_STATE_WORKING);
    expect(taskStateOf('running', approval)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // An ended run waits on nothing, whatever was pending.
    expect(taskStateOf('completed', approval)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_CANCELED].map(isSettled)).toEqual([false, true, true]);
  });

  it('has the prompt and the output as its history, the output as its artifact, and links the run', () => {
    const task = taskOfRun(run({ status: 'completed', output: '42', endedAt: '2026-12-07T10:01:00.000Z' }), undefined, { runUrl: 'http://sb/runs/r1' });
    expect(task).toMatchObject({
      id: 'r1',
      contextId: 'c1',
      status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: '2026-12-07T10:01:00.000Z', message: undefined },
    });
    expect(task.history.map((m) => [m.role, text(m), m.taskId, m.contextId])).toEqual([
      [Role.ROLE_USER, 'What is the answer?', 'r1', 'c1'],
      [Role.ROLE_AGENT, '42', 'r1', 'c1'],
    ]);
    expect(task.artifacts.map((a) => [a.name, text(a)])).toEqual([['output', '42']]);
    expect(task.metadata?.switchboard).toEqual({ runId: 'r1', agentId: 'lead', runUrl: 'http://sb/runs/r1', status: 'completed' });
    expect(taskOfRun(run({ status: 'completed', output: '42' }), undefined, { runUrl: '', historyLength: 1 }).history.map((m) => m.role)).toEqual([
      Role.ROLE_AGENT,
    ]);
    expect(taskOfRun(run(), undefined, { runUrl: '', historyLength: 0 }).history).toEqual([]);
  });

  it('says in its status message what it waits for, why it failed, or that it is paused', () => {
    const waiting = taskOfRun(run(), approval, { runUrl: '' });
    expect(text(waiting.status?.message)).toBe(approval.question);
    expect(waiting.status?.timestamp).toBe(approval.askedAt);
    expect(waiting.metadata?.switchboard.approvalId).toBe('a1');
    expect(waiting.artifacts).toEqual([]);
    expect(text(taskOfRun(run({ status: 'failed', error: 'budget_exceeded' }), undefined, { runUrl: '' }).status?.message)).toBe('budget_exceeded');
    expect(text(taskOfRun(run({ status: 'paused' }), undefined, { runUrl: '' }).status?.message)).toMatch(/paused/);
    expect(taskOfRun(run(), undefined, { runUrl: '' }).status?.message).toBeUndefined();
  });

  it('is its own context when no A2A client started it', () => {
    expect(taskOfRun(run({ a2aContextId: null }), undefined, { runUrl: '' }).contextId).toBe('r1');
  });
});

import { type Message, Role, type Task, TaskState } from '@a2a-js/sdk';
import { runState as runStateOf } from '../../../test/fixtures/run-fixtures';
import type { SwitchboardConfig } from '../../config';
import type { InstanceLease } from '../../instances';
import type { RunCommand, RunState } from '../run.decider';
import { RunHandle } from '../run-handle-table';
import type { RunRepository } from '../run-repository';
import type { RemoteAgent, RemoteAgentClients } from './remote-agent-client';
import { RemoteRunLauncher, reportedUsage } from './remote-run-launcher';

const CARD = 'https://agents.example.com/a2a/researcher/.well-known/agent-card.json';

function task(state: TaskState, output?: string): Task {
  return {
    id: 't-1',
    contextId: 'c-1',
    status: { state, message: undefined, timestamp: undefined },
    artifacts: output
      ? [
          {
            artifactId: 'a',
            name: '',
            description: '',
            parts: [{ content: { $case: 'text', value: output }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
            metadata: undefined,
            extensions: [],
          },
        ]
      : [],
    history: [],
    metadata: undefined,
  };
}

/**
 * The remote service as a script (what the outside world controls): the answer to the message, then one
 * answer per poll (a Task, or an Error thrown), the last repeated.
 */
function remoteService(sent: Task | Message, polls: Array<Task | Error>) {
  const calls: string[] = [];
  const agent: RemoteAgent = {
    name: 'Researcher',
    send: async (text, ids) => {
      calls.push(`send ${text} ${ids.messageId} ${ids.contextId ?? '-'}`);
      return sent;
    },
    getTask: async (taskId) => {
      calls.push(`get ${taskId}`);
      const next = polls.length > 1 ? polls.shift() : polls[0];
      if (next instanceof Error) throw next;
      return next as Task;
    },
    cancelTask: async (taskId) => {
      calls.push(`cancel ${taskId}`);
      return task(TaskState.TASK_STATE_CANCELED);
    },
  };
  return { calls, clients: { connect: async () => agent } as unknown as RemoteAgentClients };
}

function launcher(clients: RemoteAgentClients, decided: RunCommand[] = [], decide?: () => Promise<void>) {
  const repository = {
    decide: async (_runId: string, command: RunCommand) => {
      decided.push(command);
      await decide?.();
      return undefined;
    },
  } as unknown as RunRepository;
  const config = { a2a: { credentials: {}, pollMs: 1 } } as SwitchboardConfig;
  return new RemoteRunLauncher(config, clients, repository, { instanceId: 'instance-a' } as InstanceLease);
}

const runState = (overrides: Partial<RunState> = {}) => runStateOf(overrides, { remote: { a2a: CARD } });

describe("a remote agent's run launch (issue 43)", () => {
  it('sends the prompt, links the task, and follows it until it completes, telling what it waits for once', async () => {
    const waiting = { ...task(TaskState.TASK_STATE_INPUT_REQUIRED) };
    const { calls, clients } = remoteService(task(TaskState.TASK_STATE_SUBMITTED), [
      task(TaskState.TASK_STATE_WORKING),
      waiting,
      waiting,
      task(TaskState.TASK_STATE_COMPLETED, 'FOUND 42'),
    ]);
    const decided: RunCommand[] = [];
    const told: string[] = [];
    const outcome = await launcher(clients, decided).run(runState(), 'find it', new RunHandle('r1', 'api', 1), (text) => told.push(text));
    expect(outcome).toEqual({ kind: 'completed', output: 'FOUND 42' });
    expect(calls.slice(0, 2)).toEqual(['send find it r1-1 -', 'get t-1']);
    expect(decided).toEqual([{ type: 'link_remote_task', epoch: 1, taskId: 't-1', contextId: 'c-1', service: 'Researcher', instanceId: 'instance-a' }]);
    expect(told).toEqual(['Researcher needs input']);
  });

  it("records the usage a task's metadata reports before its end, and reads only numbers as numbers", async () => {
    const done = { ...task(TaskState.TASK_STATE_COMPLETED, 'DONE'), metadata: { switchboard: { totalTokens: 900, cost: 0.01, currency: 'USD' } } };
    const { clients } = remoteService(task(TaskState.TASK_STATE_SUBMITTED), [done]);
    const decided: RunCommand[] = [];
    expect(await launcher(clients, decided).run(runState(), 'p', new RunHandle('r1', 'api', 1), () => {})).toEqual({ kind: 'completed', output: 'DONE' });
    expect(decided[1]).toEqual({ type: 'report_remote_usage', epoch: 1, taskId: 't-1', totalTokens: 900, cost: 0.01, currency: 'USD' });
    expect(reportedUsage({ totalTokens: 5 })).toEqual({ totalTokens: 5 });
    expect(reportedUsage({ switchboard: { totalTokens: '5', cost: null } })).toBeUndefined();
    expect(reportedUsage(undefined)).toBeUndefined();
  });

  it('follows a task linked by an earlier incarnation without sending again, linking it to this instance', async () => {
    const { calls, clients } = remoteService(task(TaskState.TASK_STATE_SUBMITTED), [task(TaskState.TASK_STATE_COMPLETED, 'DONE')]);
    const decided: RunCommand[] = [];
    const linked = { epoch: 1, taskId: 't-1', contextId: 'c-1', service: 'Researcher', instanceId: 'instance-gone' };
    const outcome = await launcher(clients, decided).run(runState({ remoteTask: linked }), 'find it', new RunHandle('r1', 'api', 1), () => {});
    expect(outcome).toEqual({ kind: 'completed', output: 'DONE' });
    expect(calls.filter((call) => call.startsWith('send'))).toEqual([]);
    expect(decided).toEqual([{ type: 'link_remote_task', ...linked, instanceId: 'instance-a' }]);
  });

  it("sends a resumed launch's prompt into the last task's context", async () => {
    const { calls, clients } = remoteService(task(TaskState.TASK_STATE_COMPLETED, 'AGAIN'), []);
    const earlier = { epoch: 1, taskId: 't-0', contextId: 'c-0', service: 'Researcher', instanceId: 'instance-a' };
    const outcome = await launcher(clients).run(runState({ epoch: 2, remoteTask: earlier }), 'carry on', new RunHandle('r1', 'api', 2), () => {});
    expect(outcome).toEqual({ kind: 'completed', output: 'AGAIN' });
    expect(calls).toEqual(['send carry on r1-2 c-0']);
  });

  it('takes a message answering the message as the output', async () => {
    const reply: Message = {
      messageId: 'm',
      contextId: 'c',
      taskId: '',
      role: Role.ROLE_AGENT,
      parts: [{ content: { $case: 'text', value: 'HELLO' }, metadata: undefined, filename: '', mediaType: '' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const { clients } = remoteService(reply, []);
    expect(await launcher(clients).run(runState(), 'hi', new RunHandle('r1', 'api', 1), () => {})).toEqual({ kind: 'completed', output: 'HELLO' });
  });

  it('keeps polling through a few failures, and fails the run once the service stays unreachable', async () => {
    const down = new Error('connect ECONNREFUSED');
    const { clients: recovering } = remoteService(task(TaskState.TASK_STATE_WORKING), [down, down, task(TaskState.TASK_STATE_COMPLETED, 'BACK')]);
    expect(await launcher(recovering).run(runState(), 'p', new RunHandle('r1', 'api', 1), () => {})).toEqual({ kind: 'completed', output: 'BACK' });
    const { calls, clients: gone } = remoteService(task(TaskState.TASK_STATE_WORKING), [down]);
    const outcome = await launcher(gone).run(runState(), 'p', new RunHandle('r1', 'api', 1), () => {});
    expect(outcome).toEqual({ kind: 'failed', error: 'Lost touch with Researcher (task t-1) after 10 failed polls: connect ECONNREFUSED' });
    expect(calls.filter((call) => call.startsWith('get'))).toHaveLength(10);
  }, 20_000);

  it('stops following when the run is stopped, and cancels a task that arrived after the stop', async () => {
    const { calls, clients } = remoteService(task(TaskState.TASK_STATE_WORKING), [task(TaskState.TASK_STATE_WORKING)]);
    const handle = new RunHandle('r1', 'api', 1);
    const following = launcher(clients).run(runState(), 'p', handle, () => {});
    await new Promise((resolve) => setTimeout(resolve, 30));
    handle.cancel('stopped by api');
    expect(await following).toEqual({ kind: 'cancelled' });
    expect(calls).not.toContain('cancel t-1');

    // Stopped while the message was on its way: the stopper found no task to cancel.
    const late = remoteService(task(TaskState.TASK_STATE_WORKING), []);
    const lateHandle = new RunHandle('r1', 'api', 1);
    const outcome = await launcher(late.clients, [], async () => lateHandle.cancel('stopped by api')).run(runState(), 'p', lateHandle, () => {});
    expect(outcome).toEqual({ kind: 'cancelled' });
    expect(late.calls).toEqual(['send p r1-1 -', 'cancel t-1']);
  });
});

import { TaskState } from '@a2a-js/sdk';
import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Subject } from 'rxjs';
import { ListApprovals } from '../approvals';
import { GetRun, WatchRunEvents } from '../delegation';
import type { EventStore, StoredEvent } from '../event-store';
import { ListPendingUserInput } from '../tool-dispatch';
import { A2aTaskStore } from './a2a-task-store';

/** A running A2A task whose tree's events a test feeds, its run status and pending approvals set by the test. */
function world() {
  const events = new Subject<StoredEvent>();
  const state = { status: 'running', output: null as string | null, endedAt: null as string | null, approvals: [] as unknown[] };
  const queryBus = {
    execute: (query: unknown) => {
      if (query instanceof GetRun) {
        return Promise.resolve({
          run_id: 'r1',
          agent_id: 'lead',
          prompt: 'p',
          status: state.status,
          output: state.output,
          error: null,
          started_at: '2026-12-07T10:00:00.000Z',
          ended_at: state.endedAt,
          a2a_context_id: 'c1',
          thread_id: 'sub-agent-r1',
          subtree_usage: { total_tokens: 0, cost: null, currency: null },
        });
      }
      if (query instanceof ListApprovals) return Promise.resolve({ approvals: state.approvals, hasNextPage: false, endCursor: null });
      if (query instanceof ListPendingUserInput) return Promise.resolve([]);
      if (query instanceof WatchRunEvents) return Promise.resolve(events.asObservable());
      return Promise.reject(new Error(`unexpected query ${String(query)}`));
    },
  } as unknown as QueryBus;
  const store = { headPosition: () => Promise.resolve(10) } as unknown as EventStore;
  return { tasks: new A2aTaskStore({} as CommandBus, queryBus, store), events, state };
}

const started = (streamId: string): StoredEvent => ({
  globalPosition: 11,
  eventId: 'e',
  streamId,
  streamPosition: 1,
  type: 'run.started',
  data: { agentName: 'Researcher' },
  metadata: {},
  recordedAt: '2026-12-07T10:00:01.000Z',
});

/** Lets the follower reach its wait (the real watch replays from a position: nothing recorded meanwhile is missed). */
const subscribed = () => new Promise((resolve) => setImmediate(resolve));

describe('following an A2A task', () => {
  it('tells each step of the tree, then the end, and stops there', async () => {
    const { tasks, events, state } = world();
    const follow = tasks.follow('r1', 'lead', 'http://sb', new AbortController().signal);
    expect((await follow.next()).value?.task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const step = follow.next();
    await subscribed();
    events.next(started('run-r2abcdefgh'));
    expect((await step).value).toMatchObject({ step: 'run r2abcdef of Researcher started' });
    state.status = 'completed';
    state.output = 'done';
    state.endedAt = '2026-12-07T10:00:02.000Z';
    const end = follow.next();
    await subscribed();
    events.next(started('run-r3abcdefgh'));
    // The step that woke it is told, then the end.
    expect((await end).value?.step).toBe('run r3abcdef of Researcher started');
    expect((await follow.next()).value?.task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await follow.next()).done).toBe(true);
    expect(events.observed).toBe(false);
  });

  it('ends when the client goes away, leaving nothing subscribed', async () => {
    const { tasks, events } = world();
    const gone = new AbortController();
    const follow = tasks.follow('r1', 'lead', 'http://sb', gone.signal);
    await follow.next();
    const next = follow.next();
    await subscribed();
    gone.abort();
    expect((await next).done).toBe(true);
    expect(events.observed).toBe(false);
  });

  it('settles at INPUT_REQUIRED when the tree waits on an approval', async () => {
    const { tasks, state } = world();
    state.approvals = [
      { approvalId: 'a1', kind: 'shell', toolName: null, arguments: '{"command":"ls"}', agentName: 'Lead', requestedAt: '2026-12-07T10:00:03.000Z' },
    ];
    const follow = tasks.follow('r1', 'lead', 'http://sb', new AbortController().signal);
    const first = (await follow.next()).value;
    expect(first?.task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(first?.pending).toMatchObject({
      kind: 'approval',
      approvalId: 'a1',
      question: 'Lead asks for permission to use shell: {"command":"ls"}. Answer approve or deny.',
    });
    expect((await follow.next()).done).toBe(true);
  });
});

import { type Message, type Task, TaskState } from '@a2a-js/sdk';
import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Subscription } from 'rxjs';
import { DecideApproval, ListApprovals } from '../approvals';
import { DomainError, httpStatusOf, InvalidInputError } from '../common';
import {
  API_CALLER,
  boundTranscript,
  type ForkedMessage,
  GetRun,
  progressOf,
  RunOrigin,
  type RunView,
  type SingleRunView,
  StartRun,
  SteerRun,
  StopRun,
  toRunView,
  WatchRunEvents,
} from '../delegation';
import { EventStore } from '../event-store';
import { ListRuns } from '../run-lineage';
import { AnswerUserInput, ListPendingUserInput } from '../tool-dispatch';
import { taskMessage } from './a2a-messages';
import { isSettled, type PendingInput, TERMINAL_STATES, type TaskRun, taskOfRun } from './task-of-run';

/** A task as read now, what it waits on, and (while followed) the step that woke the reader. */
export interface TaskSnapshot {
  task: Task;
  pending: PendingInput | undefined;
  /** The run's own status (an interrupted run is a WORKING task). */
  runStatus: string;
  /** A step of the run's tree (`run … started`, `tool bash`) told as a WORKING status message. */
  step?: string;
  stepMessage?: Message;
}

/** The run statuses each A2A state filter of ListTasks reads (INPUT_REQUIRED: running runs that wait, checked per task). */
export const A2A_STATUS_FILTERS: ReadonlyMap<TaskState, readonly string[]> = new Map([
  [TaskState.TASK_STATE_WORKING, ['running', 'interrupted']],
  [TaskState.TASK_STATE_INPUT_REQUIRED, ['running']],
  [TaskState.TASK_STATE_COMPLETED, ['completed']],
  [TaskState.TASK_STATE_FAILED, ['failed']],
  [TaskState.TASK_STATE_CANCELED, ['stopped']],
]);

/** How often a followed task is read again besides each event of its tree (an approval is asked on its own stream). */
const POLL_MS = 1000;
/** The most earlier tasks of a context a new task's first prompt is built from (then bounded by characters). */
const CONTEXT_RUNS = 100;

export interface TaskListQuery {
  contextId?: string;
  statuses?: readonly string[];
  updatedFrom?: string;
  pageSize: number;
  pageToken?: string;
  historyLength?: number;
  includeArtifacts: boolean;
}

/**
 * issue 43: A2A tasks over the service's runs, read and changed only through the contexts' commands and
 * queries (a task is a root run an A2A client started, `a2a_context_id` set): so every instance answers,
 * and a task outlives the request and the process that started it.
 */
@Injectable()
export class A2aTaskStore {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly store: EventStore,
  ) {}

  /** A new run of the agent in the context, its first prompt carrying the context's earlier tasks. */
  async start(agentId: string, contextId: string, prompt: string): Promise<string> {
    const page = await this.queryBus.execute(new ListRuns({ a2aContextId: contextId }, CONTEXT_RUNS));
    const other = page.runs.find((run) => run.agentId !== agentId);
    if (other) throw new InvalidInputError(`context ${contextId} is a conversation with agent ${other.agentId}: start a new context for ${agentId}`);
    const earlier: ForkedMessage[] = [...page.runs]
      .reverse()
      .filter((run) => run.status !== 'running')
      .flatMap((run) => [{ role: 'user' as const, text: run.prompt }, ...(run.output ? [{ role: 'assistant' as const, text: run.output }] : [])]);
    const started = await this.commandBus.execute(
      new StartRun({ agentId, prompt, background: true }, API_CALLER, RunOrigin.a2aTask({ contextId, earlier: boundTranscript(earlier) })),
    );
    return started.run_id;
  }

  /** The task now: undefined when no A2A task of this agent has the id. */
  async snapshot(runId: string, agentId: string, origin: string): Promise<TaskSnapshot | undefined> {
    let run: SingleRunView;
    try {
      run = await this.queryBus.execute(new GetRun(runId));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    if (run.agent_id !== agentId || run.a2a_context_id === null) return undefined;
    const pending = run.ended_at === null ? await this.pendingInput(run.run_id, run.thread_id) : undefined;
    const usage = run.subtree_usage;
    const taskRun: TaskRun = {
      ...taskRunOfView(run),
      usage: { totalTokens: usage.total_tokens, cost: usage.cost ?? null, currency: usage.currency ?? null },
    };
    return { task: taskOfRun(taskRun, pending, { runUrl: runUrl(origin, run.run_id) }), pending, runStatus: run.status };
  }

  /**
   * The task as it goes: now, then again at each step of its tree (and at least every second), until it
   * settles (ends, or waits for input) or `signal` aborts. Steps are the tree's events after this call, not its history.
   */
  async *follow(
    runId: string,
    agentId: string,
    origin: string,
    signal: AbortSignal,
    /**
     * `settled`: until it ends or waits for input (a client's wait); `ended`: through its waits, until it ends or
     * its run is interrupted (push notifications: nothing changes until someone resumes it).
     */
    until: 'settled' | 'ended' = 'settled',
  ): AsyncGenerator<TaskSnapshot, void, undefined> {
    const done = (snapshot: TaskSnapshot) => {
      const state = snapshot.task.status?.state;
      if (state === undefined) return false;
      if (until === 'settled') return isSettled(state);
      return TERMINAL_STATES.has(state) || snapshot.runStatus === 'interrupted';
    };
    const after = await this.store.headPosition();
    const first = await this.snapshot(runId, agentId, origin);
    if (!first) return;
    yield first;
    if (done(first)) return;
    const wakes = new Wakes();
    const events = await this.queryBus.execute(new WatchRunEvents(runId, true, after));
    const subscription: Subscription = events.subscribe({ next: (event) => wakes.push(progressOf(event)), error: () => wakes.push(undefined) });
    const timer = setInterval(() => wakes.push(undefined), POLL_MS);
    // The client went away (its request closed): nobody reads what follows, so stop reading it.
    const gone = () => wakes.push(undefined);
    signal.addEventListener('abort', gone, { once: true });
    try {
      let last = first;
      while (!signal.aborted) {
        const steps = await wakes.next();
        if (signal.aborted) return;
        const now = await this.snapshot(runId, agentId, origin);
        if (!now) return;
        for (const [i, step] of steps.entries()) {
          const stepMessage = taskMessage('agent', { messageId: `${runId}:step:${Date.now()}:${i}`, taskId: runId, contextId: now.task.contextId }, step);
          yield { ...now, step, stepMessage };
        }
        const ended = done(now);
        if (ended || now.task.status?.state !== last.task.status?.state || now.pending?.question !== last.pending?.question) yield now;
        if (ended) return;
        last = now;
      }
    } finally {
      subscription.unsubscribe();
      clearInterval(timer);
      signal.removeEventListener('abort', gone);
    }
  }

  /** The agent's A2A tasks, newest first, keyset-paged as the runs list is. */
  async list(agentId: string, origin: string, query: TaskListQuery) {
    const page = await this.queryBus.execute(
      new ListRuns(
        {
          agentId,
          startedOverA2a: true,
          ...(query.contextId ? { a2aContextId: query.contextId } : {}),
          ...(query.statuses ? { statuses: query.statuses } : {}),
          ...(query.updatedFrom ? { updatedFrom: query.updatedFrom } : {}),
        },
        query.pageSize,
        query.pageToken,
        true,
      ),
    );
    const tasks = await Promise.all(
      page.runs.map(async (row) => {
        const pending = row.endedAt === null ? await this.pendingInput(row.runId, row.threadId) : undefined;
        const task = taskOfRun(taskRunOfView(toRunView(row)), pending, { runUrl: runUrl(origin, row.runId), historyLength: query.historyLength });
        return query.includeArtifacts ? task : { ...task, artifacts: [] };
      }),
    );
    return { tasks, nextPageToken: page.hasNextPage ? (page.endCursor ?? '') : '', pageSize: query.pageSize, totalSize: page.totalCount ?? tasks.length };
  }

  stop(runId: string, reason: string): Promise<unknown> {
    return this.commandBus.execute(new StopRun(runId, API_CALLER, reason));
  }

  steer(runId: string, message: string): Promise<unknown> {
    return this.commandBus.execute(new SteerRun(runId, message, 'api'));
  }

  decide(approvalId: string, decision: { decision: 'approve' | 'deny'; reason?: string }): Promise<unknown> {
    return this.commandBus.execute(new DecideApproval(approvalId, { decision: decision.decision, scope: 'once', reason: decision.reason }, 'api'));
  }

  answerQuestion(sessionId: string, requestId: string, answer: string): Promise<unknown> {
    return this.commandBus.execute(new AnswerUserInput(sessionId, requestId, { answer, wasFreeform: true }));
  }

  /** What the run's tree waits on from a person: its oldest pending approval, else a question of the run's own agent. */
  private async pendingInput(runId: string, threadId: string): Promise<PendingInput | undefined> {
    const approvals = await this.queryBus.execute(new ListApprovals({ rootRunId: runId, status: 'pending' }, 20));
    const oldest = approvals.approvals[approvals.approvals.length - 1];
    if (oldest) {
      const what = oldest.toolName ? `${oldest.kind} (${oldest.toolName})` : oldest.kind;
      const args = oldest.arguments ? `: ${oldest.arguments.slice(0, 400)}` : '';
      return {
        kind: 'approval',
        approvalId: oldest.approvalId,
        askedAt: oldest.requestedAt,
        question: `${oldest.agentName ?? 'An agent'} asks for permission to use ${what}${args}. Answer approve or deny.`,
      };
    }
    const questions = await this.queryBus.execute(new ListPendingUserInput(threadId)).catch((error: unknown) => {
      // The run's session is not open yet, has ended, or lives on another instance: it asks nothing here.
      if (isNotFound(error)) return [];
      throw error;
    });
    const question = questions[0];
    if (!question) return undefined;
    const choices = question.choices.length > 0 ? ` (choices: ${question.choices.join(', ')})` : '';
    return {
      kind: 'question',
      requestId: question.requestId,
      sessionId: question.sessionId,
      askedAt: question.askedAt,
      question: `${question.question}${choices}`,
      choices: question.choices,
    };
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof DomainError && httpStatusOf(error) === 404;
}

/** A run's view (GetRun's, or a listed row's through the same `toRunView`) as what a task is made of. */
function taskRunOfView(run: RunView): TaskRun {
  return {
    runId: run.run_id,
    agentId: run.agent_id,
    prompt: run.prompt,
    status: run.status,
    output: run.output,
    error: run.error,
    startedAt: run.started_at,
    endedAt: run.ended_at,
    a2aContextId: run.a2a_context_id,
  };
}

/** The run's page in the console. */
export function runUrl(origin: string, runId: string): string {
  return `${origin}/runs/${encodeURIComponent(runId)}`;
}

/** Wake-ups of a follower: the steps told since it last looked (an empty batch for a timer's tick). */
class Wakes {
  private steps: string[] = [];
  private woken = false;
  private waiter: (() => void) | undefined;

  push(step: string | undefined): void {
    if (step !== undefined) this.steps.push(step);
    this.woken = true;
    this.waiter?.();
  }

  async next(): Promise<string[]> {
    if (!this.woken) await new Promise<void>((resolve) => (this.waiter = resolve));
    this.waiter = undefined;
    this.woken = false;
    const steps = this.steps;
    this.steps = [];
    return steps;
  }
}

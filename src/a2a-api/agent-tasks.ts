import {
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
  TaskState,
} from '@a2a-js/sdk';
import {
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { HttpException, Logger } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { DomainError, graphqlErrorOf, httpStatusOf } from '../common';
import { decodeRunCursor } from '../run-lineage';
import { A2A_STATUS_FILTERS, type A2aTaskStore, type TaskSnapshot } from './a2a-task-store';
import { decisionOfMessage, promptOfMessage } from './a2a-messages';
import type { PushNotifications } from './push-notifications/push-notifications';
import { TERMINAL_STATES } from './task-of-run';

/** A client-given contextId Switchboard keeps as it is; anything else is refused. */
const CONTEXT_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_PAGE = 100;
const DEFAULT_PAGE = 50;

/**
 * issue 43: one library agent as an A2A server: a task is a run of the agent (its id the run's), kept in
 * the event log as any run is, so every instance answers for every task and nothing lives in memory past a
 * request. `SendMessage` starts a run (in a context given, with that context's earlier tasks in its first
 * prompt), or, with a `taskId`, answers what the task waits on (an approval, an agent's question) or steers
 * it; it waits for the task to settle (end, or need input) unless `returnImmediately`. `SendStreamingMessage`
 * and `SubscribeToTask` tell each step as it happens. Made per request by the controller (the agent is the
 * URL's); the caller's identity is the request's (`actingAs`), checked per operation by the controller.
 */
export class AgentTasks implements A2ARequestHandler {
  private readonly logger = new Logger('A2a');

  constructor(
    private readonly agentId: string,
    private readonly card: AgentCard,
    private readonly tasks: A2aTaskStore,
    /** The service's origin as the client reached it (a task links its run's page there). */
    private readonly origin: string,
    /** Aborted when the client's request closes: a wait or a stream for it ends. */
    private readonly signal: AbortSignal,
    private readonly push: PushNotifications,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError('this agent has no extended card: its card is the same for every caller');
  }

  async sendMessage(params: SendMessageRequest): Promise<Message | Task> {
    const taskId = await this.accept(params);
    if (params.configuration?.returnImmediately) return this.task(taskId, params.configuration.historyLength);
    let last: TaskSnapshot | undefined;
    for await (const snapshot of this.tasks.follow(taskId, this.agentId, this.origin, this.signal)) last = snapshot;
    return last ? this.trimmed(last.task, params.configuration?.historyLength) : this.task(taskId, params.configuration?.historyLength);
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const taskId = await this.accept(params);
    yield* this.stream(taskId);
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    return this.task(params.id, params.historyLength);
  }

  async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE) throw new RequestMalformedError(`pageSize must be 1 to ${MAX_PAGE}`);
    if (params.pageToken && !isPageToken(params.pageToken)) {
      throw new RequestMalformedError("pageToken is not one this server gave out: pass the previous page's nextPageToken, or none for the first page");
    }
    const statuses = params.status ? A2A_STATUS_FILTERS.get(params.status) : undefined;
    if (params.status && !statuses) throw new RequestMalformedError(`status ${params.status} is no task state`);
    const page = await this.mapped(() =>
      this.tasks.list(this.agentId, this.origin, {
        contextId: params.contextId || undefined,
        statuses,
        updatedFrom: params.statusTimestampAfter || undefined,
        pageSize,
        pageToken: params.pageToken || undefined,
        historyLength: params.historyLength,
        includeArtifacts: params.includeArtifacts ?? false,
      }),
    );
    // WORKING and INPUT_REQUIRED are both running runs: which one a run is, only its pending input says.
    return params.status ? { ...page, tasks: page.tasks.filter((task) => task.status?.state === params.status) } : page;
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    const before = await this.task(params.id);
    if (before.status && TERMINAL_STATES.has(before.status.state)) {
      throw new TaskNotCancelableError(`task ${params.id} has ended (${stateName(before.status.state)}): there is nothing to cancel`);
    }
    const reason = typeof params.metadata?.reason === 'string' ? params.metadata.reason.slice(0, 2000) : 'cancelled by an A2A client';
    await this.mapped(() => this.tasks.stop(params.id, reason));
    return this.task(params.id);
  }

  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const task = await this.task(params.id);
    if (task.status && TERMINAL_STATES.has(task.status.state)) {
      throw new UnsupportedOperationError(`task ${params.id} has ended (${stateName(task.status.state)}): GetTask reads it`);
    }
    yield* this.stream(params.id);
  }

  /** A config for the task: its notifications go to `url` at each change of its state, starting with its state now. */
  async createTaskPushNotificationConfig(params: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    this.assertPushOn();
    await this.task(params.taskId);
    const config = await this.mapped(() => this.push.prepare(params));
    return this.mapped(() => this.push.set(params.taskId, this.agentId, this.origin, config));
  }

  async getTaskPushNotificationConfig(params: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    this.assertPushOn();
    await this.task(params.taskId);
    return this.mapped(() => this.push.get(params.taskId, params.id));
  }

  /** A task has at most 10 configs: one page holds them all. */
  async listTaskPushNotificationConfigs(params: ListTaskPushNotificationConfigsRequest): Promise<ListTaskPushNotificationConfigsResponse> {
    this.assertPushOn();
    await this.task(params.taskId);
    return { configs: await this.mapped(() => this.push.list(params.taskId)), nextPageToken: '' };
  }

  async deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest): Promise<void> {
    this.assertPushOn();
    await this.task(params.taskId);
    await this.mapped(() => this.push.delete(params.taskId, params.id));
  }

  /** The task the message is about: a new run, or the one named by `taskId` given what the message says. */
  private async accept(params: SendMessageRequest): Promise<string> {
    const message = params.message;
    if (!message) throw new RequestMalformedError('message is required');
    // Refused rather than ignored: a client that asked to be called back must not wait for a call that never comes.
    const pushAsked = params.configuration?.taskPushNotificationConfig;
    if (pushAsked) this.assertPushOn();
    const push = pushAsked ? await this.mapped(() => this.push.prepare(pushAsked)) : undefined;
    if (message.contextId && !CONTEXT_ID.test(message.contextId)) {
      throw new RequestMalformedError('contextId must be 1 to 128 letters, digits or . _ : -');
    }
    const taskId = message.taskId ? await this.answer(message) : await this.startTask(message);
    if (push) await this.mapped(() => this.push.set(taskId, this.agentId, this.origin, push));
    return taskId;
  }

  private async startTask(message: Message): Promise<string> {
    const read = promptOfMessage(message);
    if ('problem' in read) throw new RequestMalformedError(read.problem);
    const contextId = message.contextId || uuidv7();
    const runId = await this.mapped(() => this.tasks.start(this.agentId, contextId, read.prompt));
    this.logger.log({ agentId: this.agentId, runId, contextId }, 'A2A task started');
    return runId;
  }

  private assertPushOn(): void {
    if (!this.push.enabled) {
      throw new PushNotificationNotSupportedError(
        'push notifications are off on this server (its operator has not set SWITCHBOARD_SECRETS_KEY): follow the task with SubscribeToTask or GetTask',
      );
    }
  }

  /**
   * A message to a task: to one waiting for input, the answer (an approval's decision, a question's answer);
   * to a working one, guidance the agent reads in its next model request; an ended task takes none.
   */
  private async answer(message: Message): Promise<string> {
    const snapshot = await this.mapped(() => this.tasks.snapshot(message.taskId, this.agentId, this.origin));
    if (!snapshot) throw new TaskNotFoundError(`no task ${message.taskId} of agent ${this.agentId}`);
    const { task, pending } = snapshot;
    if (message.contextId && message.contextId !== task.contextId) {
      throw new RequestMalformedError(`task ${task.id} is of context ${task.contextId}, not ${message.contextId}`);
    }
    const state = task.status?.state;
    if (state !== undefined && TERMINAL_STATES.has(state)) {
      throw new UnsupportedOperationError(
        `task ${task.id} has ended (${stateName(state)}) and takes no more messages: send one without taskId in context ${task.contextId} to go on`,
      );
    }
    const read = promptOfMessage(message);
    if (pending?.kind === 'approval') {
      const decision = decisionOfMessage(message);
      if (!decision)
        throw new RequestMalformedError(`task ${task.id} waits for an approval: answer approve or deny (text, or a data part {"decision": "approve"})`);
      await this.mapped(() => this.tasks.decide(pending.approvalId, decision));
    } else if ('problem' in read) {
      throw new RequestMalformedError(read.problem);
    } else if (pending?.kind === 'question') {
      await this.mapped(() => this.tasks.answerQuestion(pending.sessionId, pending.requestId, read.prompt));
    } else {
      await this.mapped(() => this.tasks.steer(task.id, read.prompt));
    }
    return task.id;
  }

  /** The task now, then each step as a WORKING update, then its end (the output as an artifact first) or what it waits for. */
  private async *stream(taskId: string): AsyncGenerator<StreamResponse, void, undefined> {
    let first = true;
    for await (const snapshot of this.tasks.follow(taskId, this.agentId, this.origin, this.signal)) {
      const { task } = snapshot;
      if (first) {
        first = false;
        yield { payload: { $case: 'task', value: task } };
        continue;
      }
      const ids = { taskId, contextId: task.contextId, metadata: undefined };
      if (snapshot.stepMessage) {
        const status = { state: TaskState.TASK_STATE_WORKING, message: snapshot.stepMessage, timestamp: new Date().toISOString() };
        yield { payload: { $case: 'statusUpdate', value: { ...ids, status } } };
        continue;
      }
      if (task.status?.state === TaskState.TASK_STATE_COMPLETED) {
        for (const artifact of task.artifacts) {
          yield { payload: { $case: 'artifactUpdate', value: { ...ids, artifact, append: false, lastChunk: true } } };
        }
      }
      yield { payload: { $case: 'statusUpdate', value: { ...ids, status: task.status, metadata: task.metadata } } };
    }
  }

  private async task(taskId: string, historyLength?: number): Promise<Task> {
    const snapshot = await this.mapped(() => this.tasks.snapshot(taskId, this.agentId, this.origin));
    if (!snapshot) throw new TaskNotFoundError(`no task ${taskId} of agent ${this.agentId}`);
    return this.trimmed(snapshot.task, historyLength);
  }

  private trimmed(task: Task, historyLength: number | undefined): Task {
    if (historyLength === undefined) return task;
    return { ...task, history: historyLength <= 0 ? [] : task.history.slice(-historyLength) };
  }

  /** A refusal of the service (unknown agent, bad input, a budget, a state) as A2A's error; a fault stays a fault (500). */
  private async mapped<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof DomainError) && !(error instanceof HttpException)) throw error;
      const mapped = graphqlErrorOf(error, httpStatusOf, this.logger);
      const status = Number(mapped.extensions.statusCode);
      if (!(status < 500)) throw error;
      const code = typeof mapped.extensions.code === 'string' ? mapped.extensions.code : 'refused';
      if (status === 404) throw new TaskNotFoundError({ message: mapped.message, metadata: { code } });
      if (status === 409) throw new UnsupportedOperationError({ message: mapped.message, metadata: { code } });
      throw new RequestMalformedError({ message: `${code}: ${mapped.message}`, metadata: { code } });
    }
  }
}

/** A page token is the runs list's cursor (keyset on start time and id). */
function isPageToken(token: string): boolean {
  try {
    decodeRunCursor(token);
    return true;
  } catch {
    return false;
  }
}

/** `completed`, `input-required`...: the SDK enum's own name, in words. */
function stateName(state: TaskState): string {
  return (TaskState[state] ?? String(state)).replace('TASK_STATE_', '').toLowerCase().replace('_', '-');
}

import { type Artifact, type Task, TaskState } from '@a2a-js/sdk';
import { taskMessage, textPart } from './a2a-messages';

/** What a task is made of: a run as the run views have it (a2a-handler adapts GetRun's view and a runs row). */
export interface TaskRun {
  runId: string;
  agentId: string;
  prompt: string;
  /** running, paused (a running run under a pause), completed, failed, stopped, interrupted. */
  status: string;
  output: string | null;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
  /** null for a run no A2A client started: its own id is its context. */
  a2aContextId: string | null;
  /** Over the run's subtree, when read (a single task). */
  usage?: { totalTokens: number; cost: number | null; currency: string | null };
}

/** What a running task waits for from its client: a person's approval, or an answer to an agent's question. */
export type PendingInput =
  | { kind: 'approval'; approvalId: string; askedAt: string; question: string }
  | { kind: 'question'; requestId: string; sessionId: string; askedAt: string; question: string; choices: string[] };

/**
 * A2A's state of a run. A run that ended completed, failed or stopped is COMPLETED, FAILED or CANCELED; a
 * running run (paused, or interrupted and waiting for its recovery, included) is WORKING, or INPUT_REQUIRED
 * while it waits on something the next message answers.
 */
export function taskStateOf(status: string, pending: PendingInput | undefined): TaskState {
  switch (status) {
    case 'completed':
      return TaskState.TASK_STATE_COMPLETED;
    case 'failed':
      return TaskState.TASK_STATE_FAILED;
    case 'stopped':
      return TaskState.TASK_STATE_CANCELED;
    default:
      return pending ? TaskState.TASK_STATE_INPUT_REQUIRED : TaskState.TASK_STATE_WORKING;
  }
}

export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/** A state the task stays in until the client acts (a terminal one, or input required): a wait for it ends there. */
export function isSettled(state: TaskState): boolean {
  return TERMINAL_STATES.has(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED;
}

/**
 * The run as an A2A task: its id is the run's, its history the client's prompt and the agent's answer, the
 * answer also its `output` artifact; the status message says what it waits for, why it failed, or that it is
 * paused. `metadata.switchboard` links the run (its page in the console) and what it cost.
 */
export function taskOfRun(run: TaskRun, pending: PendingInput | undefined, options: { runUrl: string; historyLength?: number }): Task {
  const ids = { taskId: run.runId, contextId: run.a2aContextId ?? run.runId };
  const state = taskStateOf(run.status, pending);
  const history = [taskMessage('user', { ...ids, messageId: `${run.runId}:prompt` }, run.prompt)];
  if (run.output !== null && run.output !== '') history.push(taskMessage('agent', { ...ids, messageId: `${run.runId}:output` }, run.output));
  const said = statusText(run, pending);
  return {
    id: run.runId,
    contextId: ids.contextId,
    status: {
      state,
      message: said === undefined ? undefined : taskMessage('agent', { ...ids, messageId: `${run.runId}:status:${statusKey(run, pending)}` }, said),
      timestamp: run.endedAt ?? pending?.askedAt ?? run.startedAt,
    },
    artifacts: state === TaskState.TASK_STATE_COMPLETED && run.output ? [outputArtifact(run.output)] : [],
    history: options.historyLength === undefined ? history : options.historyLength <= 0 ? [] : history.slice(-options.historyLength),
    metadata: {
      switchboard: {
        runId: run.runId,
        agentId: run.agentId,
        runUrl: options.runUrl,
        status: run.status,
        ...(run.usage ? { totalTokens: run.usage.totalTokens, cost: run.usage.cost, currency: run.usage.currency } : {}),
        ...(pending?.kind === 'approval' ? { approvalId: pending.approvalId } : {}),
        ...(pending?.kind === 'question' ? { userInputRequestId: pending.requestId, choices: pending.choices } : {}),
      },
    },
  };
}

export function outputArtifact(output: string): Artifact {
  return { artifactId: 'output', name: 'output', description: "The agent's answer", parts: [textPart(output)], metadata: undefined, extensions: [] };
}

/** What the status message says: the question waited on, why the run failed or was stopped, a pause. */
function statusText(run: TaskRun, pending: PendingInput | undefined): string | undefined {
  if (pending) return pending.question;
  if (run.status === 'failed') return run.error ?? 'The run failed.';
  if (run.status === 'stopped') return run.error ?? 'The run was stopped.';
  if (run.status === 'paused') return 'The run is paused; it goes on when someone unpauses it.';
  if (run.status === 'interrupted') return 'The run was interrupted; Switchboard resumes it.';
  return undefined;
}

function statusKey(run: TaskRun, pending: PendingInput | undefined): string {
  if (pending?.kind === 'approval') return pending.approvalId;
  if (pending?.kind === 'question') return pending.requestId;
  return run.status;
}

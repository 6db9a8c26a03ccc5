import type { RecordedTrace } from '../common';
import { type Decider, foldEvents } from '../event-store';
import type { BudgetBreach, BudgetLimit } from './run-budget';
import { RunStateError, StaleRunCompletionError } from './run.errors';
import {
  type RunEvent,
  RunEvents,
  type RunRemoteTaskLinkedData,
  type RunRemoteUsageReportedData,
  type RunStartedData,
  type RunStatus,
  type StoppedBy,
  isRunEvent,
} from './run.events';

/** A run as folded from its stream: what the decider needs to accept or refuse a command. */
export interface RunState {
  started: RunStartedData;
  status: RunStatus;
  /** Incremented by every launch (start = 1, each resume +1): the stale-completion guard. */
  epoch: number;
  output: string | null;
  error: string | null;
  stoppedBy: StoppedBy | null;
  /** Budget limits its owner was warned about (each once). */
  budgetWarned: BudgetLimit[];
  /** issue 43: a remote agent's run: the last remote task a launch linked (a resume continues in its context). */
  remoteTask: Omit<RunRemoteTaskLinkedData, 'runId'> | null;
}

export type RunCommand =
  | { type: 'start'; data: RunStartedData }
  | { type: 'complete'; epoch: number; output: string }
  | { type: 'fail'; epoch: number; error: string }
  | { type: 'stop'; stoppedBy: StoppedBy; forced: boolean }
  | { type: 'interrupt'; epoch?: number; reason: string }
  | { type: 'resume'; prompt: string; resumedBy: string; trace?: RecordedTrace }
  | { type: 'warn_budget'; breach: BudgetBreach }
  | ({ type: 'link_remote_task' } & Omit<RunRemoteTaskLinkedData, 'runId'>)
  | ({ type: 'report_remote_usage' } & Omit<RunRemoteUsageReportedData, 'runId'>);

/**
 * Pure: given a command and the run so far (undefined: no stream yet), the events to append, or an error.
 * running -> completed | failed | stopped | interrupted; interrupted | stopped -> running (resume, new epoch).
 * Completions carry their launch's epoch; one from an earlier launch is refused (StaleRunCompletionError).
 * Interrupting a run that is no longer running is a no-op, so recovery may repeat it safely.
 */
function decideRun(command: RunCommand, state: RunState | undefined): RunEvent[] {
  if (command.type === 'start') {
    if (state) throw new RunStateError(`Run ${command.data.runId} already exists`);
    return [{ type: RunEvents.started, data: { ...command.data, epoch: 1 } }];
  }
  if (!state) throw new RunStateError('The run does not exist yet');
  const runId = state.started.runId;
  switch (command.type) {
    case 'complete':
    case 'fail': {
      if (command.epoch !== state.epoch) {
        throw new StaleRunCompletionError(
          `Run ${runId}: a ${command.type === 'complete' ? 'completion' : 'failure'} from launch ${command.epoch} arrived, but launch ${state.epoch} is current`,
        );
      }
      if (state.status !== 'running') {
        throw new RunStateError(`Run ${runId} is ${state.status}; only a running run can ${command.type}`);
      }
      return command.type === 'complete'
        ? [{ type: RunEvents.completed, data: { runId, epoch: state.epoch, output: command.output } }]
        : [{ type: RunEvents.failed, data: { runId, epoch: state.epoch, error: command.error } }];
    }
    case 'stop':
      if (state.status !== 'running') throw new RunStateError(`Run ${runId} is ${state.status}; there is nothing to stop`);
      return [{ type: RunEvents.stopped, data: { runId, epoch: state.epoch, stoppedBy: command.stoppedBy, forced: command.forced } }];
    case 'interrupt':
      if (state.status !== 'running') return [];
      if (command.epoch !== undefined && command.epoch !== state.epoch) return [];
      return [{ type: RunEvents.interrupted, data: { runId, epoch: state.epoch, reason: command.reason } }];
    case 'resume':
      if (state.status !== 'interrupted' && state.status !== 'stopped') {
        throw new RunStateError(
          `Run ${runId} is ${state.status}; only an interrupted or stopped run can be resumed${
            state.status === 'running' ? ' (it is still running: wait for it or stop it)' : ''
          }`,
        );
      }
      return [
        {
          type: RunEvents.resumed,
          data: {
            runId,
            epoch: state.epoch + 1,
            prompt: command.prompt,
            resumedBy: command.resumedBy,
            ...(command.trace ? { trace: command.trace } : {}),
          },
        },
      ];
    case 'link_remote_task': {
      const { type: _type, ...link } = command;
      if (command.epoch !== state.epoch) {
        throw new StaleRunCompletionError(`Run ${runId}: a remote task of launch ${command.epoch} arrived, but launch ${state.epoch} is current`);
      }
      if (state.status !== 'running') throw new RunStateError(`Run ${runId} is ${state.status}; only a running run follows a remote task`);
      if (!state.started.remote) throw new RunStateError(`Run ${runId} runs ${state.started.agentId} here; it has no remote task`);
      const same = state.remoteTask;
      // Linked again by the same instance: nothing new (a retried append).
      if (same && same.epoch === link.epoch && same.taskId === link.taskId && same.instanceId === link.instanceId) return [];
      return [{ type: RunEvents.remoteTaskLinked, data: { runId, ...link } }];
    }
    case 'report_remote_usage': {
      const { type: _type, ...usage } = command;
      if (command.epoch !== state.epoch) {
        throw new StaleRunCompletionError(
          `Run ${runId}: a remote task's usage from launch ${command.epoch} arrived, but launch ${state.epoch} is current`,
        );
      }
      if (state.remoteTask?.taskId !== command.taskId) throw new RunStateError(`Run ${runId} does not follow remote task ${command.taskId}`);
      return [{ type: RunEvents.remoteUsageReported, data: { runId, ...usage } }];
    }
    case 'warn_budget':
      // Each limit is warned about once; a run that ended has nobody left to warn.
      if (state.status !== 'running' || state.budgetWarned.includes(command.breach.limit)) return [];
      return [{ type: RunEvents.budgetWarned, data: { runId, ...command.breach } }];
  }
}

function evolveRun(state: RunState | undefined, event: RunEvent): RunState | undefined {
  switch (event.type) {
    case RunEvents.started:
      return {
        started: event.data,
        status: 'running',
        epoch: event.data.epoch,
        output: null,
        error: null,
        stoppedBy: null,
        budgetWarned: [],
        remoteTask: null,
      };
    case RunEvents.completed:
      return state && { ...state, status: 'completed', output: event.data.output };
    case RunEvents.failed:
      return state && { ...state, status: 'failed', error: event.data.error };
    case RunEvents.stopped:
      return state && { ...state, status: 'stopped', stoppedBy: event.data.stoppedBy };
    case RunEvents.interrupted:
      return state && { ...state, status: 'interrupted', error: event.data.reason };
    case RunEvents.resumed:
      return state && { ...state, status: 'running', epoch: event.data.epoch, error: null, stoppedBy: null };
    case RunEvents.budgetWarned:
      return state && { ...state, budgetWarned: [...state.budgetWarned, event.data.limit] };
    case RunEvents.remoteTaskLinked: {
      const { runId: _runId, ...link } = event.data;
      return state && { ...state, remoteTask: link };
    }
    default:
      return state;
  }
}

/** A run's stream (`run-<run_id>`): undefined until it started. */
export const runDecider: Decider<RunState | undefined, RunCommand, RunEvent> = {
  isEvent: isRunEvent,
  initialState: () => undefined,
  evolve: evolveRun,
  decide: decideRun,
};

/** The run as its stream's run events fold (other types are skipped). */
export function foldRun(events: ReadonlyArray<{ type: string; data: object }>): RunState | undefined {
  return foldEvents(runDecider, events.filter(isRunEvent));
}

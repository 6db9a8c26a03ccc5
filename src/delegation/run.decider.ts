import { RunStateError, StaleRunCompletionError } from './run.errors';
import {
  type RunCompletedData,
  RunEvents,
  type RunFailedData,
  type RunInterruptedData,
  type RunResumedData,
  type RunStartedData,
  type RunStatus,
  type RunStoppedData,
  type StoppedBy,
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
}

export type RunCommand =
  | { type: 'start'; data: RunStartedData }
  | { type: 'complete'; epoch: number; output: string }
  | { type: 'fail'; epoch: number; error: string }
  | { type: 'stop'; stoppedBy: StoppedBy; forced: boolean }
  | { type: 'interrupt'; epoch?: number; reason: string }
  | { type: 'resume'; prompt: string; resumedBy: string };

export type RunEvent =
  | { type: typeof RunEvents.started; data: RunStartedData }
  | { type: typeof RunEvents.completed; data: RunCompletedData }
  | { type: typeof RunEvents.failed; data: RunFailedData }
  | { type: typeof RunEvents.stopped; data: RunStoppedData }
  | { type: typeof RunEvents.interrupted; data: RunInterruptedData }
  | { type: typeof RunEvents.resumed; data: RunResumedData };

/**
 * Pure: given the run so far (undefined: no stream yet) and a command, the events to append, or an error.
 * running -> completed | failed | stopped | interrupted; interrupted | stopped -> running (resume, new epoch).
 * Completions carry their launch's epoch; one from an earlier launch is refused (StaleRunCompletionError).
 * Interrupting a run that is no longer running is a no-op, so recovery may repeat it safely.
 */
export function decideRun(state: RunState | undefined, command: RunCommand): RunEvent[] {
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
        { type: RunEvents.resumed, data: { runId, epoch: state.epoch + 1, prompt: command.prompt, resumedBy: command.resumedBy } },
      ];
  }
}

export function evolveRun(state: RunState | undefined, event: { type: string; data: unknown }): RunState | undefined {
  switch (event.type) {
    case RunEvents.started: {
      const data = event.data as RunStartedData;
      return { started: data, status: 'running', epoch: data.epoch, output: null, error: null, stoppedBy: null };
    }
    case RunEvents.completed:
      return state && { ...state, status: 'completed', output: (event.data as RunCompletedData).output };
    case RunEvents.failed:
      return state && { ...state, status: 'failed', error: (event.data as RunFailedData).error };
    case RunEvents.stopped:
      return state && { ...state, status: 'stopped', stoppedBy: (event.data as RunStoppedData).stoppedBy };
    case RunEvents.interrupted:
      return state && { ...state, status: 'interrupted', error: (event.data as RunInterruptedData).reason };
    case RunEvents.resumed:
      return state && { ...state, status: 'running', epoch: (event.data as RunResumedData).epoch, error: null, stoppedBy: null };
    default:
      return state;
  }
}

export function foldRun(events: ReadonlyArray<{ type: string; data: unknown }>): RunState | undefined {
  return events.reduce<RunState | undefined>(evolveRun, undefined);
}

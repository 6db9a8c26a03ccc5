import type { Decider } from '../event-store';
import {
  isModelCallEvent,
  type ModelCallEvent,
  ModelCallEvents,
  type ModelCallFailedData,
  type ModelCallFinishedData,
  type ModelCallRefusedData,
  type ModelCallStartedData,
} from './model-call.events';

export type ModelCallStatus = 'absent' | 'in_flight' | 'succeeded' | 'failed' | 'cancelled' | 'refused' | 'interrupted';

export interface ModelCallState {
  status: ModelCallStatus;
  sessionId?: string;
  runId?: string;
}

export type ModelCallCommand =
  | { type: 'start'; started: ModelCallStartedData }
  | { type: 'finish'; finished: ModelCallFinishedData }
  | { type: 'fail'; failed: ModelCallFailedData }
  | { type: 'refuse'; refused: ModelCallRefusedData }
  | { type: 'interrupt'; callId: string; reason: string };

/**
 * One model call: started, then finished, failed or interrupted once; or refused without being sent.
 * An end for a call that already ended changes nothing (the forwarding instance and a takeover racing
 * each other: the first recorded wins, the stream's version guards the append).
 */
export const modelCallDecider: Decider<ModelCallState, ModelCallCommand, ModelCallEvent> = {
  isEvent: isModelCallEvent,
  initialState: () => ({ status: 'absent' }),

  evolve(state, event) {
    switch (event.type) {
      case ModelCallEvents.started:
        return { status: 'in_flight', sessionId: event.data.sessionId, runId: event.data.runId };
      case ModelCallEvents.finished:
        return { ...state, status: 'succeeded' };
      case ModelCallEvents.failed:
        return { ...state, status: event.data.outcome };
      case ModelCallEvents.refused:
        return { status: 'refused', sessionId: event.data.sessionId, runId: event.data.runId };
      case ModelCallEvents.interrupted:
        return { ...state, status: 'interrupted' };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'start':
        return state.status === 'absent' ? [{ type: ModelCallEvents.started, data: command.started }] : [];
      case 'refuse':
        return state.status === 'absent' ? [{ type: ModelCallEvents.refused, data: command.refused }] : [];
      case 'finish':
        return state.status === 'in_flight' ? [{ type: ModelCallEvents.finished, data: command.finished }] : [];
      case 'fail':
        return state.status === 'in_flight' ? [{ type: ModelCallEvents.failed, data: command.failed }] : [];
      case 'interrupt':
        if (state.status !== 'in_flight' || !state.sessionId) return [];
        return [
          {
            type: ModelCallEvents.interrupted,
            data: { callId: command.callId, sessionId: state.sessionId, ...(state.runId ? { runId: state.runId } : {}), reason: command.reason },
          },
        ];
    }
  },
};

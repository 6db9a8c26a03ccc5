import type { Decider, PauseTarget } from '../event-store';
import { PauseStateError } from './pause.errors';
import { type PausedData, type PauseEvent, PauseEvents, isPauseEvent } from './pause.events';

export interface PauseState {
  /** The open pause, if any. */
  paused?: PausedData;
}

export type PauseCommand =
  | { type: 'pause'; pause: Omit<PausedData, 'pausedAt'>; now: number }
  | { type: 'unpause'; target: PauseTarget; id: string; unpausedBy: string; now: number };

/**
 * One run's or one session's pauses: paused, then unpaused, any number of times. A second pause while
 * one is open, or an unpause of nothing, is refused (409) naming the state, so two people acting at
 * once cannot both win. Whether the target runs is the caller's check (other contexts' state).
 */
export const pauseDecider: Decider<PauseState, PauseCommand, PauseEvent> = {
  isEvent: isPauseEvent,
  initialState: () => ({}),

  evolve(state, event) {
    switch (event.type) {
      case PauseEvents.paused:
        return { paused: event.data };
      case PauseEvents.unpaused:
        return {};
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'pause': {
        const { pause } = command;
        if (state.paused) {
          throw PauseStateError.alreadyPaused(pause.target, pause.runId ?? pause.sessionId ?? '', state.paused.pausedAt, state.paused.pausedBy);
        }
        return [{ type: PauseEvents.paused, data: { ...pause, pausedAt: new Date(command.now).toISOString() } }];
      }
      case 'unpause': {
        const open = state.paused;
        if (!open) throw PauseStateError.notPaused(command.target, command.id);
        return [
          {
            type: PauseEvents.unpaused,
            data: {
              pauseId: open.pauseId,
              target: open.target,
              ...(open.runId ? { runId: open.runId } : {}),
              ...(open.sessionId ? { sessionId: open.sessionId } : {}),
              unpausedBy: command.unpausedBy,
              pausedMs: Math.max(0, command.now - Date.parse(open.pausedAt)),
            },
          },
        ];
      }
    }
  },
};

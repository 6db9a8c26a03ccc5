import type { Decider } from '../event-store';
import { FiringStateError } from './schedule.errors';
import { type FiringClaimedData, type FiringEvent, ScheduleEvents, type FiringFailedData, type FiringSkippedData, isFiringEvent } from './schedule.events';

/** Where a firing is: the `status` column of `schedule_firings` is this fold too. */
export type FiringStatus = 'starting' | 'started' | 'skipped' | 'retrying' | 'failed';

export interface FiringState {
  /** undefined: nothing recorded yet (the stream is empty). */
  status?: FiringStatus;
  /** The latest claim: which run this attempt starts, and which instance claimed it. */
  claim?: FiringClaimedData;
  /** The attempt of the latest claim (0 before any). */
  attempt: number;
  /** `retrying`: when the next attempt is due. */
  retryAt: string | null;
}

export type FiringCommand =
  /** First claim (empty stream, appended at version 0) or a retry's claim once `retryAt` has come; `attempt` is the decider's. */
  | { type: 'claim'; claim: Omit<FiringClaimedData, 'attempt'>; now: number }
  /** The claimed run is recorded started (by the claimer, or by whoever found its run stream after the claimer died). */
  | { type: 'start'; startedAt: string }
  /** The claimed run's start was refused; `retryAt` null: for good. Also from `retrying`, when a retry must not happen. */
  | { type: 'fail'; failure: Pick<FiringFailedData, 'code' | 'message' | 'retryAt' | 'failedAt'> }
  /** Nothing starts for this due time (overlap, missed); only on an empty stream. */
  | { type: 'skip'; skip: FiringSkippedData };

/**
 * One firing's stream: claimed → started | failed (retryAt: claimed again later, attempt + 1, a new
 * run id) ; or skipped. The first event is appended at expected version 0 by whoever decides it: of
 * several instances firing the same due time, the others get a version conflict and do nothing.
 */
export const firingDecider: Decider<FiringState, FiringCommand, FiringEvent> = {
  isEvent: isFiringEvent,
  initialState: () => ({ attempt: 0, retryAt: null }),

  evolve(state, event) {
    switch (event.type) {
      case ScheduleEvents.firingClaimed:
        return { status: 'starting', claim: event.data, attempt: event.data.attempt, retryAt: null };
      case ScheduleEvents.firingStarted:
        return { ...state, status: 'started', retryAt: null };
      case ScheduleEvents.firingSkipped:
        return { ...state, status: 'skipped' };
      case ScheduleEvents.firingFailed:
        return { ...state, status: event.data.retryAt ? 'retrying' : 'failed', retryAt: event.data.retryAt };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'claim': {
        const { claim } = command;
        const retryDue = state.status === 'retrying' && state.retryAt !== null && Date.parse(state.retryAt) <= command.now;
        if (state.status !== undefined && !retryDue) {
          throw new FiringStateError(claim.firingId, describe(state), 'claimed');
        }
        return [{ type: ScheduleEvents.firingClaimed, data: { ...claim, attempt: state.attempt + 1 } }];
      }
      case 'start': {
        const claim = state.claim;
        // Started once: a second completion (the claimer and a takeover both) changes nothing.
        if (state.status === 'started') return [];
        if (state.status !== 'starting' || !claim) throw new FiringStateError(claim?.firingId ?? '?', describe(state), 'started');
        return [
          {
            type: ScheduleEvents.firingStarted,
            data: { firingId: claim.firingId, scheduleId: claim.scheduleId, runId: claim.runId, startedAt: command.startedAt },
          },
        ];
      }
      case 'fail': {
        const claim = state.claim;
        if ((state.status !== 'starting' && state.status !== 'retrying') || !claim) {
          throw new FiringStateError(claim?.firingId ?? '?', describe(state), 'failed');
        }
        return [
          {
            type: ScheduleEvents.firingFailed,
            data: { firingId: claim.firingId, scheduleId: claim.scheduleId, runId: claim.runId, attempt: state.attempt, ...command.failure },
          },
        ];
      }
      case 'skip':
        if (state.status !== undefined) throw new FiringStateError(command.skip.firingId, describe(state), 'skipped');
        return [{ type: ScheduleEvents.firingSkipped, data: command.skip }];
    }
  },
};

function describe(state: FiringState): string {
  if (state.status === 'retrying') return `retrying at ${state.retryAt}`;
  return state.status ?? 'not recorded';
}

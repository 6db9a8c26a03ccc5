import { isDeepStrictEqual } from 'node:util';
import type { Decider } from '../event-store/decider';
import { ScheduleExistsError, ScheduleNotFoundError } from './schedule.errors';
import { type ScheduleDefinition, type ScheduleEvent, ScheduleEvents, isScheduleEvent } from './schedule.events';

export interface ScheduleState {
  /** undefined: never created, or deleted. */
  definition?: ScheduleDefinition;
  enabled: boolean;
  deleted: boolean;
}

export type ScheduleCommand =
  | { type: 'create'; scheduleId: string; definition: ScheduleDefinition; enabled: boolean }
  | { type: 'update'; scheduleId: string; definition: ScheduleDefinition }
  | { type: 'enable'; scheduleId: string }
  | { type: 'disable'; scheduleId: string }
  | { type: 'delete'; scheduleId: string };

/**
 * A schedule's stream. Its definition is checked before (the handler knows the agents and the clock);
 * here: created once, changed while it exists, and nothing after it is deleted (404). A command that
 * changes nothing (enable an enabled one, the same definition again) records nothing.
 */
export const scheduleDecider: Decider<ScheduleState, ScheduleCommand, ScheduleEvent> = {
  isEvent: isScheduleEvent,
  initialState: () => ({ enabled: false, deleted: false }),

  evolve(state, event) {
    switch (event.type) {
      case ScheduleEvents.created:
        return { definition: event.data.definition, enabled: event.data.enabled, deleted: false };
      case ScheduleEvents.updated:
        return { ...state, definition: event.data.definition };
      case ScheduleEvents.enabled:
        return { ...state, enabled: true };
      case ScheduleEvents.disabled:
        return { ...state, enabled: false };
      case ScheduleEvents.deleted:
        return { enabled: false, deleted: true };
      default:
        return state;
    }
  },

  decide(command, state) {
    const { scheduleId } = command;
    if (command.type === 'create') {
      // Ids are uuid v7 chosen by the handler: a stream that exists is a bug or a replayed request, never a 2nd schedule.
      if (state.definition || state.deleted) throw new ScheduleExistsError(scheduleId);
      return [{ type: ScheduleEvents.created, data: { scheduleId, definition: command.definition, enabled: command.enabled } }];
    }
    if (!state.definition) throw new ScheduleNotFoundError(scheduleId);
    switch (command.type) {
      case 'update':
        if (isDeepStrictEqual(command.definition, state.definition)) return [];
        return [{ type: ScheduleEvents.updated, data: { scheduleId, definition: command.definition } }];
      case 'enable':
        return state.enabled ? [] : [{ type: ScheduleEvents.enabled, data: { scheduleId } }];
      case 'disable':
        return state.enabled ? [{ type: ScheduleEvents.disabled, data: { scheduleId } }] : [];
      case 'delete':
        return [{ type: ScheduleEvents.deleted, data: { scheduleId } }];
    }
  },
};

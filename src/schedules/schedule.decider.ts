import { isDeepStrictEqual } from 'node:util';
import type { Decider } from '../event-store';
import { allTimingChecks, changedDefinition, scheduleProblems, type TimingChecks } from './schedule-definition';
import type { ScheduleChanges } from './schedule-requests';
import { InvalidScheduleError, ScheduleExistsError, ScheduleNotFoundError } from './schedule.errors';
import { type ScheduleDefinition, type ScheduleEvent, ScheduleEvents, isScheduleEvent } from './schedule.events';

export interface ScheduleState {
  /** undefined: never created, or deleted. */
  definition?: ScheduleDefinition;
  enabled: boolean;
  deleted: boolean;
}

export type ScheduleCommand =
  /**
   * `now`: the clock the one-off time and the end must lie ahead of; `minIntervalSeconds`: the operator's
   * closest two firings of a cron (SWITCHBOARD_SCHEDULE_MIN_INTERVAL).
   */
  | { type: 'create'; scheduleId: string; definition: ScheduleDefinition; enabled: boolean; now: Date; minIntervalSeconds: number }
  /** PATCH: the given fields replace the definition's (a whole new one is recorded), `enabled` turns it on or off. */
  | { type: 'update'; scheduleId: string; changes: ScheduleChanges; now: Date; minIntervalSeconds: number }
  | { type: 'enable'; scheduleId: string }
  | { type: 'disable'; scheduleId: string }
  | { type: 'delete'; scheduleId: string };

/**
 * A schedule's stream: created once (with a definition that can fire: 422 `invalid_schedule` naming
 * every problem), changed while it exists, and nothing after it is deleted (404). What needs other
 * contexts (the agent exists, a cost budget can be kept) the handler checks first. A command that
 * changes nothing (enable an enabled one, the same fields again) records nothing.
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
      assertValid(command.definition, command.now, allTimingChecks(command.minIntervalSeconds));
      return [{ type: ScheduleEvents.created, data: { scheduleId, definition: command.definition, enabled: command.enabled } }];
    }
    if (!state.definition) throw new ScheduleNotFoundError(scheduleId);
    switch (command.type) {
      case 'update': {
        const { changes } = command;
        const events: ScheduleEvent[] = [];
        const definition = changedDefinition(state.definition, changes);
        if (!isDeepStrictEqual(definition, state.definition)) {
          const before = state.definition;
          assertValid(definition, command.now, {
            at: definition.at !== before.at,
            endsAt: definition.endsAt !== before.endsAt,
            cadence: definition.cron !== before.cron || definition.timeZone !== before.timeZone,
            minIntervalSeconds: command.minIntervalSeconds,
          });
          events.push({ type: ScheduleEvents.updated, data: { scheduleId, definition } });
        }
        if (changes.enabled !== undefined) events.push(...toggle(scheduleId, state.enabled, changes.enabled));
        return events;
      }
      case 'enable':
        return toggle(scheduleId, state.enabled, true);
      case 'disable':
        return toggle(scheduleId, state.enabled, false);
      case 'delete':
        return [{ type: ScheduleEvents.deleted, data: { scheduleId } }];
    }
  },
};

/** No event when it already is so. */
function toggle(scheduleId: string, enabled: boolean, wanted: boolean): ScheduleEvent[] {
  if (enabled === wanted) return [];
  return [{ type: wanted ? ScheduleEvents.enabled : ScheduleEvents.disabled, data: { scheduleId } }];
}

function assertValid(definition: ScheduleDefinition, now: Date, check: TimingChecks): void {
  const problems = scheduleProblems(definition, now, check);
  if (problems.length > 0) throw new InvalidScheduleError(problems);
}

import { type CatalogEntry, contextCatalog } from '../common/event-catalog-entry';
import { ScheduleEvents } from './schedule.events';

/** issue 30: a schedule's stream and each firing's; the schedules projection keeps both tables. */
const scheduleDecided: CatalogEntry = { stream: 'schedule', appendedBy: { decider: 'scheduleDecider' }, projections: ['schedules'], console: 'not shown' };
const firingDecided: CatalogEntry = {
  stream: 'schedule_firing',
  appendedBy: { decider: 'firingDecider' },
  projections: ['schedules'],
  console: 'not shown',
};

export const scheduleCatalog = contextCatalog(
  { ScheduleEvents },
  {
    [ScheduleEvents.created]: scheduleDecided,
    [ScheduleEvents.updated]: scheduleDecided,
    [ScheduleEvents.enabled]: scheduleDecided,
    [ScheduleEvents.disabled]: scheduleDecided,
    [ScheduleEvents.deleted]: scheduleDecided,
    [ScheduleEvents.firingClaimed]: firingDecided,
    [ScheduleEvents.firingStarted]: firingDecided,
    [ScheduleEvents.firingSkipped]: firingDecided,
    [ScheduleEvents.firingFailed]: firingDecided,
  },
);

import { contextCatalog, decidedBy } from '../common';
import { ScheduleEvents } from './schedule.events';

/** issue 30: a schedule's stream and each firing's; the schedules projection keeps both tables. */
const scheduleDecided = decidedBy('scheduleDecider', 'schedule', ['schedules']);
const firingDecided = decidedBy('firingDecider', 'schedule_firing', ['schedules']);

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

// The schedules feature's public face: the schedule pages; what others use: the note naming the schedule that started a run.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { ScheduleDetailPage } from './ScheduleDetailPage';
export { ScheduleEditorPage } from './ScheduleEditorPage';
export { ScheduledByNote } from './ScheduledByNote';
export { SchedulesPage } from './SchedulesPage';

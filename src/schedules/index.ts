/**
 * The schedules context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside schedules/ import each other directly, never this file.
 */
export { SchedulesModule } from './schedules.module';

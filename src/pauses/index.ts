/**
 * The pauses context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside pauses/ import each other directly, never this file.
 */
export { PauseHolds } from './pause-holds';
export type { PauseView } from './pause-holds';
export { PauseEvents, readPauseEvent } from './pause.events';
export type { PauseEvent } from './pause.events';
export { PausesModule } from './pauses.module';

/**
 * The child-sessions context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside child-sessions/ import each other directly, never this file.
 */
export { resolverErrors } from './child-session-resolver';
export { ChildSessionRouting } from './child-session-routing';
export { ChildSessionEvents, readChildSessionEvent } from './child-session.events';
export { ChildSessionsModule } from './child-sessions.module';
export { ChildSessionsProjection } from './projections/child-sessions.projection';

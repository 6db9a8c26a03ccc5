/**
 * The event-log context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside event-log/ import each other directly, never this file.
 */
export { EventLogModule } from './event-log.module';
export { EventPage, StoredEventModel, StreamPageBeforeModel } from './graphql/event.model';
export { StreamSummariesProjection } from './projections/stream-summaries.projection';
export { ListEventsBefore } from './queries/list-events-before/list-events-before.query';
export { ListStreamsEvents } from './queries/list-streams-events/list-streams-events.query';
export { WatchStream } from './queries/watch-stream/watch-stream.query';

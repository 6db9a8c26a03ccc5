/**
 * The event-store context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside event-store/ import each other directly, never this file.
 */
export { eventGuard, foldEvents, foldStream, handleCommand, planCommand } from './decider';
export type { Decider, DomainEvent, FoldedStream } from './decider';
export { eventReader, fieldsOf } from './event-reader';
export type { UncheckedEvent } from './event-reader';
export { EventStore } from './event-store';
export { ExpectedVersionConflictError } from './event-store.errors';
export { EventStoreModule } from './event-store.module';
export type { EventMetadata, NewEvent, StoredEvent, StreamAppend, StreamsRead } from './event-store.types';
export { InlineProjectionHook, applyInlineProjections, eventsFor } from './inline-projection-hook';
export type { PostgresInlineProjection } from './inline-projection-hook';
export { CopyRefusedError, copyLog } from './postgres/copy-log';
export { APPEND_LOCK_KEY, PostgresEventStore } from './postgres/postgres-event-store';
export { readEventsAfter } from './postgres/postgres-log-rows';
export { SqliteEventStore } from './sqlite/sqlite-event-store';
export {
  RUN_THREAD_PREFIX,
  agentStreamId,
  apiKeyStreamId,
  approvalStreamId,
  modelCallStreamId,
  parseStreamId,
  pauseStreamId,
  pauseTargetOfStream,
  runIdOfStream,
  runIdOfThread,
  runStreamId,
  runThreadId,
  scheduleFiringStreamId,
  workspaceStreamId,
  a2aPushStreamId,
  scheduleStreamId,
  sessionIdOfStream,
  sessionStreamId,
  streamCategory,
} from './stream-ids';
export type { PauseTarget, StreamKind } from './stream-ids';
export { streamPages } from './stream-pages';

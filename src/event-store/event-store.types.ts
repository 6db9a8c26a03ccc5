import type { Actor } from '../common';

/** What the caller hands to `append`. */
export interface NewEvent<T extends object = Record<string, unknown>> {
  type: string;
  data: T;
  metadata?: EventMetadata;
  /** Defaults to a fresh UUID; a repeated id is rejected by the log's unique index. */
  eventId?: string;
}

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  actor?: string;
  /** issue 27: who did it (`src/common/actor.ts`); absent on events recorded before. */
  by?: Actor;
  [key: string]: unknown;
}

/** An event as committed to the log. */
export interface StoredEvent<T extends object = Record<string, unknown>> {
  globalPosition: number;
  eventId: string;
  streamId: string;
  /** 1-based; equals the stream's version right after this event. */
  streamPosition: number;
  type: string;
  data: T;
  metadata: EventMetadata;
  recordedAt: string;
}

/** One read of `EventStore.readStreams`: the events of several streams together, in global order. */
export interface StreamsRead {
  streamIds: readonly string[];
  /** Global position to start after. */
  after: number;
  /** At most this many events (of all the streams together). */
  limit: number;
}

/**
 * A number is the exact version the stream must be at (0: must not exist yet).
 * `any` skips the check; `no_stream` / `stream_exists` check existence only.
 */
export type ExpectedVersion = number | 'any' | 'no_stream' | 'stream_exists';

/** One stream's part of an append. */
export interface StreamAppend {
  streamId: string;
  expectedVersion: ExpectedVersion;
  events: NewEvent[];
}

export interface AppendOptions {
  /**
   * How long this append may wait to share a commit with others (default 0: the next loop turn).
   * For fire-and-forget records (audit, CLI event logs), a few ms turn one fsync per record into one per batch.
   */
  maxDelayMs?: number;
}

export interface AppendResult {
  streamId: string;
  /** The stream's version after the append: pass it as expectedVersion of the next one. */
  nextExpectedVersion: number;
  events: StoredEvent[];
}

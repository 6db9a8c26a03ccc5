import type { Observable } from 'rxjs';
import { currentActor } from '../common';
import { catchUpThenLive } from './catch-up-then-live';
import { InvalidAppendError } from './event-store.errors';
import type { AppendOptions, AppendResult, ExpectedVersion, NewEvent, StoredEvent, StreamAppend, StreamsRead } from './event-store.types';
import { STREAM_PAGE_SIZE } from './stream-pages';

/** One group commit as metrics see it: how many appends it carried, how many of them it refused, how long the transaction took. */
export interface CommitRecord {
  appends: number;
  /** Appends of a committed group that wrote nothing: an expected-version conflict, invalid events, a failing inline projection. */
  refused: number;
  durationMs: number;
  committed: boolean;
}

/**
 * The event store port: what the application asks of the log, whichever database holds it.
 * Adapters: `SqliteEventStore` (`sqlite/`, the embedded default) and `PostgresEventStore`
 * (`postgres/`, several instances on one database). Both give the same guarantees:
 * - `append` / `appendMany` with an expected version; a conflict is `ExpectedVersionConflictError`,
 *   `appendMany` is all or nothing; group commit; inline projections in the append's transaction;
 * - reads see every committed event, and positions have no holes a reader could skip;
 * - `committed$` carries every committed event once, in global order (on PostgreSQL every
 *   instance's), and has emitted an append's events by the time its promise resolves.
 * Injected by this class: `EventStoreModule` binds it to the adapter the configuration chose.
 */
export abstract class EventStore {
  /** Every event once, in global order, right after its transaction committed. Live only: see `subscribe`. */
  abstract readonly committed$: Observable<StoredEvent>;
  /** Every group commit (and failed commit) with its duration, for /metrics. */
  abstract readonly commits$: Observable<CommitRecord>;

  /**
   * Appends events to a stream if it is at `expectedVersion`. Resolves once they are durable;
   * rejects with ExpectedVersionConflictError when the stream moved on.
   */
  append(streamId: string, expectedVersion: ExpectedVersion, events: NewEvent[], options?: AppendOptions): Promise<AppendResult> {
    return this.appendMany([{ streamId, expectedVersion, events }], options).then(([result]) => result);
  }

  /**
   * Appends to several streams atomically: every part's version is checked and either all parts are
   * committed or none (an import of many agents, say, is never half-done).
   */
  abstract appendMany(parts: StreamAppend[], options?: AppendOptions): Promise<AppendResult[]>;

  /** A stream's events from stream position `fromVersion` (1-based, default 1), at most `limit`. */
  abstract readStream(streamId: string, options?: { fromVersion?: number; limit?: number }): Promise<StoredEvent[]>;

  /** Events with a global position greater than `after`, in global order (a page of 500 unless `limit`). */
  abstract readAll(options?: { after?: number; limit?: number }): Promise<StoredEvent[]>;

  /**
   * Several reads in one round trip (a GraphQL loader's batch): for each read, the first `limit` events
   * after global position `after` in any of its streams, in global order. One array per read, in read order.
   */
  abstract readStreams(reads: readonly StreamsRead[]): Promise<StoredEvent[][]>;

  /** The stream's version (number of events), 0 when it does not exist. */
  abstract streamVersion(streamId: string): Promise<number>;

  /** Global position of the newest committed event, 0 for an empty log. */
  abstract headPosition(): Promise<number>;

  /**
   * Catch-up then live: every event after global position `after`, each exactly once and in global
   * order, with no gap between the replayed part and the live part (live events are buffered during
   * catch-up; on PostgreSQL every instance's).
   */
  subscribe(after = 0): Observable<StoredEvent> {
    return catchUpThenLive(
      {
        live$: this.committed$,
        readPage: (last) => this.catchUpPage({ after: last, limit: STREAM_PAGE_SIZE }),
        pageSize: STREAM_PAGE_SIZE,
        positionOf: (event) => event.globalPosition,
        matches: () => true,
      },
      after,
    );
  }

  /** The same for one stream, positions being stream positions (1-based): what SSE clients resume from. */
  subscribeToStream(streamId: string, afterStreamPosition = 0): Observable<StoredEvent> {
    return catchUpThenLive(
      {
        live$: this.committed$,
        readPage: (last) => this.catchUpStreamPage(streamId, { fromVersion: last + 1, limit: STREAM_PAGE_SIZE }),
        pageSize: STREAM_PAGE_SIZE,
        positionOf: (event) => event.streamPosition,
        matches: (event) => event.streamId === streamId,
      },
      afterStreamPosition,
    );
  }

  /**
   * A page of the log for a catch-up, read as the adapter's live feed needs it: SQLite reads it
   * synchronously, PostgreSQL once its tail runs.
   */
  protected abstract catchUpPage(options: { after: number; limit: number }): StoredEvent[] | Promise<StoredEvent[]>;

  /** A page of one stream for a catch-up, read as catchUpPage is. */
  protected abstract catchUpStreamPage(streamId: string, options: { fromVersion: number; limit: number }): StoredEvent[] | Promise<StoredEvent[]>;

  /** Group-commit counters since start: appends per commit shows how much batching happens. */
  abstract stats(): { commits: number; appends: number };
}

export const MAX_STREAM_ID_LENGTH = 256;

export function matchesExpectedVersion(expected: ExpectedVersion, current: number, exists: boolean): boolean {
  return (
    expected === 'any' ||
    (expected === 'no_stream' && !exists) ||
    (expected === 'stream_exists' && exists) ||
    (typeof expected === 'number' && expected === current)
  );
}

/**
 * issue 27: the parts with `metadata.by` set to the actor the current work is done for
 * (`src/common/acting-actor.ts`) on every event that does not name one already. Both stores stamp
 * what they are asked to append with it, so every command records who did it.
 */
export function withActor(parts: StreamAppend[]): StreamAppend[] {
  const by = currentActor();
  return parts.map((part) => ({
    ...part,
    events: part.events.map((event) => (event.metadata?.by ? event : { ...event, metadata: { ...event.metadata, by } })),
  }));
}

/** An appendMany's parts: at least one, each a valid append, no stream twice. Both stores check with it. */
export function validateAppendMany(parts: StreamAppend[]): void {
  if (!Array.isArray(parts) || parts.length === 0) throw new InvalidAppendError('appendMany needs at least one stream append');
  const streams = new Set<string>();
  for (const part of parts) {
    validateAppend(part.streamId, part.expectedVersion, part.events);
    if (streams.has(part.streamId)) throw new InvalidAppendError(`Stream ${part.streamId} appears twice in one appendMany`);
    streams.add(part.streamId);
  }
}

export function validateAppend(streamId: string, expectedVersion: ExpectedVersion, events: NewEvent[]): void {
  if (typeof streamId !== 'string' || streamId.length === 0 || streamId.length > MAX_STREAM_ID_LENGTH) {
    throw new InvalidAppendError(`streamId must be a non-empty string of at most ${MAX_STREAM_ID_LENGTH} characters`);
  }
  if (
    !(typeof expectedVersion === 'number' && Number.isInteger(expectedVersion) && expectedVersion >= 0) &&
    !['any', 'no_stream', 'stream_exists'].includes(expectedVersion as string)
  ) {
    throw new InvalidAppendError(`expectedVersion must be a version number >= 0, 'any', 'no_stream' or 'stream_exists' (got ${String(expectedVersion)})`);
  }
  if (!Array.isArray(events) || events.length === 0) {
    throw new InvalidAppendError('An append needs at least one event');
  }
  for (const event of events) {
    if (typeof event?.type !== 'string' || event.type.length === 0) {
      throw new InvalidAppendError('Every event needs a non-empty string type');
    }
    if (event.data === null || typeof event.data !== 'object') {
      throw new InvalidAppendError(`Event ${event.type}: data must be a JSON object`);
    }
  }
}

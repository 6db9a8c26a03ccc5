import { v7 as uuidv7 } from 'uuid';
import { matchesExpectedVersion } from '../event-store';
import { ExpectedVersionConflictError } from '../event-store.errors';
import type { EventMetadata, StreamAppend } from '../event-store.types';

/** A stream's version as the group sees it: from the streams table, then moved on by the group's earlier appends. */
export interface KnownStream {
  version: number;
}

/** One event ready for INSERT: everything but its global position, which the database assigns. */
export interface PlannedEvent {
  eventId: string;
  streamId: string;
  streamPosition: number;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

export interface PlannedPart {
  streamId: string;
  nextExpectedVersion: number;
  events: PlannedEvent[];
}

export type RequestPlan = { parts: PlannedPart[] } | { conflict: ExpectedVersionConflictError };

/**
 * Checks one request's expected versions against what the group knows and numbers its events.
 * Under the append lock nobody else writes, so this check in memory is as good as one in SQL: a
 * request that conflicts is refused before anything is written, and an appendMany whose one part
 * conflicts writes none of its parts. `known` is left untouched; `commitPlan` moves it on once the
 * request's rows are in.
 */
export function planRequest(parts: readonly StreamAppend[], known: ReadonlyMap<string, KnownStream>): RequestPlan {
  const planned: PlannedPart[] = [];
  for (const { streamId, expectedVersion, events } of parts) {
    const stream = known.get(streamId);
    const current = stream?.version ?? 0;
    if (!matchesExpectedVersion(expectedVersion, current, stream !== undefined)) {
      return { conflict: new ExpectedVersionConflictError(streamId, expectedVersion, current) };
    }
    planned.push({
      streamId,
      nextExpectedVersion: current + events.length,
      events: events.map((event, i) => ({
        // Time-ordered ids keep inserts into the event_id index at its right edge.
        eventId: event.eventId ?? uuidv7(),
        streamId,
        streamPosition: current + i + 1,
        type: event.type,
        data: event.data,
        metadata: event.metadata ?? {},
      })),
    });
  }
  return { parts: planned };
}

/** The request's rows are written: the group's later requests see the streams at their new versions. */
export function commitPlan(plan: { parts: PlannedPart[] }, known: Map<string, KnownStream>): void {
  for (const part of plan.parts) known.set(part.streamId, { version: part.nextExpectedVersion });
}

/**
 * A group planned without reading the streams table: each stream is taken to be where its first
 * request in the group says it is (an expected version number, or absent for `no_stream`), or, for
 * `any` / `stream_exists`, at the version this store last committed for it (`cachedVersion`), unless
 * that memory contradicts the expectation. The write statement checks every guess under the append lock (see writePartsSql), and a wrong one fails
 * the whole group, which is then replayed on the checked path that reads the versions first; so
 * nothing decided here outlives a wrong guess (its cost: a round trip, and the global positions its
 * rolled-back INSERT drew, a gap readers skip). `undefined` when some stream cannot be guessed.
 *
 * A request's guesses count only once it is accepted: a conflict is then always against a version
 * an earlier request of the group writes (and the check verifies), never against a guess nobody wrote.
 */
export function planPredictedGroup(
  requests: readonly (readonly StreamAppend[])[],
  cachedVersion: (streamId: string) => number | undefined,
): RequestPlan[] | undefined {
  const known = new Map<string, KnownStream>();
  const plans: RequestPlan[] = [];
  for (const parts of requests) {
    // This request's guesses join `known` for its planning, and leave again if it is refused.
    const guessed: string[] = [];
    for (const { streamId, expectedVersion } of parts) {
      if (known.has(streamId)) continue;
      const cached = cachedVersion(streamId);
      const guess = typeof expectedVersion === 'number' ? expectedVersion : expectedVersion === 'no_stream' ? 0 : cached;
      // No guess, or one the store's own memory contradicts (most likely a real conflict): read first.
      if (guess === undefined || (cached !== undefined && cached !== guess)) return undefined;
      if (guess > 0) {
        known.set(streamId, { version: guess });
        guessed.push(streamId);
      }
    }
    const plan = planRequest(parts, known);
    if ('parts' in plan) commitPlan(plan, known);
    else for (const streamId of guessed) known.delete(streamId);
    plans.push(plan);
  }
  return plans;
}

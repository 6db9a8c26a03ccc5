import { escapeLiteral } from 'pg';
import type { PlannedPart } from './append-plan';

/**
 * The SQL of a group, as text for the simple query protocol. node-postgres sends one statement at a
 * time and waits for its answer, but a simple query may hold several statements: sending the lock,
 * the write and the COMMIT as one such query is what keeps a group commit at one round trip
 * instead of four (two when the versions must be read first). Values travel as escaped literals (pg's escapeLiteral), the events as
 * one JSON document unpacked by json_to_recordset.
 */

/** Advisory lock, then the group's stream versions. Separate statements: each takes its own snapshot
 * once the previous one finished, so the read sees every group committed before the lock was granted. */
export function lockAndReadVersionsSql(lockKey: bigint, streamIds: readonly string[]): string {
  return [
    'BEGIN',
    `SELECT pg_advisory_xact_lock(${lockKey})`,
    `SELECT stream_id, version FROM streams WHERE stream_id = ANY(ARRAY[${streamIds.map(escapeLiteral).join(', ')}]::text[])`,
  ].join('; ');
}

/**
 * `BEGIN`, the append lock, then `writePartsSql`: the one round trip of a group planned from guesses
 * (planPredictedGroup). The write is a statement of its own after the lock, so its snapshot sees
 * every group committed before the lock was granted.
 */
export function lockAndWritePartsSql(lockKey: bigint, parts: readonly PlannedPart[], recordedAt: string): string {
  return ['BEGIN', `SELECT pg_advisory_xact_lock(${lockKey})`, writePartsSql(parts, recordedAt)].join('; ');
}

/** The code and column of the error writePartsSql raises when a stream is not at the version the plan started from. */
export const STREAM_MOVED = { code: '23502', table: 'events', column: 'stream_position' } as const;

/**
 * One statement: the streams' new versions and the events (INSERT ... RETURNING their positions).
 * It also checks that every stream is at the version the plan numbered its events from (`base`):
 * `moved` bumps an existing stream only from that version, `created` inserts a new one only if no
 * row exists; an event whose stream did neither gets a NULL position, which the NOT NULL constraint
 * refuses (STREAM_MOVED), failing the statement and with it the group before anything is visible.
 * Under the append lock, after reading the versions, the check always passes; after guessing them,
 * it is what makes a wrong guess harmless. The events are inserted in the order they were numbered
 * (ORDER BY n), so a stream's events take increasing global positions. A stream twice in the group
 * is written once, from its first base to its last version.
 */
export function writePartsSql(parts: readonly PlannedPart[], recordedAt: string): string {
  const events = parts.flatMap((part) =>
    part.events.map((event) => ({
      event_id: event.eventId,
      stream_id: event.streamId,
      stream_position: event.streamPosition,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
    })),
  );
  const streams = new Map<string, { stream_id: string; base: number; version: number }>();
  for (const part of parts) {
    const stream = streams.get(part.streamId);
    if (stream) stream.version = part.nextExpectedVersion;
    else streams.set(part.streamId, { stream_id: part.streamId, base: part.events[0].streamPosition - 1, version: part.nextExpectedVersion });
  }
  const at = `${escapeLiteral(recordedAt)}::timestamptz`;
  return `WITH planned AS (
  SELECT * FROM json_to_recordset(${escapeLiteral(JSON.stringify([...streams.values()]))}::json) AS s(stream_id text, base int, version int)
), moved AS (
  UPDATE streams SET version = p.version, updated_at = ${at} FROM planned AS p
  WHERE streams.stream_id = p.stream_id AND p.base > 0 AND streams.version = p.base
  RETURNING streams.stream_id
), created AS (
  INSERT INTO streams (stream_id, version, created_at, updated_at)
  SELECT p.stream_id, p.version, ${at}, ${at} FROM planned AS p WHERE p.base = 0
  ON CONFLICT (stream_id) DO NOTHING
  RETURNING stream_id
), ready AS (
  SELECT stream_id FROM moved UNION ALL SELECT stream_id FROM created
)
INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata, recorded_at)
SELECT e.event_id, e.stream_id, CASE WHEN e.stream_id IN (SELECT stream_id FROM ready) THEN e.stream_position END, e.type, e.data, e.metadata, ${at}
FROM ROWS FROM (
  json_to_recordset(${escapeLiteral(JSON.stringify(events))}::json) AS (event_id text, stream_id text, stream_position int, type text, data jsonb, metadata jsonb)
) WITH ORDINALITY AS e(event_id, stream_id, stream_position, type, data, metadata, n)
ORDER BY e.n
RETURNING global_position, event_id`;
}

import { escapeLiteral } from 'pg';
import type { PlannedPart } from './append-plan';

/**
 * The SQL of a group, as text for the simple query protocol. node-postgres sends one statement at a
 * time and waits for its answer, but a simple query may hold several statements: sending the lock,
 * the version read, the write and the COMMIT as two such queries is what keeps a group commit at two
 * round trips instead of five. Values travel as escaped literals (pg's escapeLiteral), the events as
 * one JSON document unpacked by json_to_recordset.
 */

/** Advisory lock, then the group's stream versions. Separate statements: each takes its own snapshot
 * once the previous one finished, so the read sees every group committed before the lock was granted.
 * The savepoint after them is where a failed group goes back to, the lock still held, to replay. */
export function lockAndReadVersionsSql(lockKey: bigint, streamIds: readonly string[]): string {
  return [
    'BEGIN',
    `SELECT pg_advisory_xact_lock(${lockKey})`,
    `SELECT stream_id, version FROM streams WHERE stream_id = ANY(ARRAY[${streamIds.map(escapeLiteral).join(', ')}]::text[])`,
    'SAVEPOINT group_start',
  ].join('; ');
}

/**
 * One statement: the streams' new versions (upsert) and the events (INSERT ... RETURNING their
 * positions). The events are inserted in the order they were numbered (ORDER BY n), so a stream's
 * events take increasing global positions. A stream twice in the group is upserted once, at its
 * last version (ON CONFLICT may not touch a row twice in one statement).
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
  const versions = new Map<string, number>();
  for (const part of parts) versions.set(part.streamId, part.nextExpectedVersion);
  const streams = [...versions].map(([stream_id, version]) => ({ stream_id, version }));
  const at = `${escapeLiteral(recordedAt)}::timestamptz`;
  return `WITH upserted AS (
  INSERT INTO streams (stream_id, version, created_at, updated_at)
  SELECT s.stream_id, s.version, ${at}, ${at} FROM json_to_recordset(${escapeLiteral(JSON.stringify(streams))}::json) AS s(stream_id text, version int)
  ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at
)
INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata, recorded_at)
SELECT e.event_id, e.stream_id, e.stream_position, e.type, e.data, e.metadata, ${at}
FROM ROWS FROM (
  json_to_recordset(${escapeLiteral(JSON.stringify(events))}::json) AS (event_id text, stream_id text, stream_position int, type text, data jsonb, metadata jsonb)
) WITH ORDINALITY AS e(event_id, stream_id, stream_position, type, data, metadata, n)
ORDER BY e.n
RETURNING global_position, event_id`;
}

import type { PlannedPart } from './append-plan';

/**
 * The SQL of a group, as text for the simple query protocol. node-postgres sends one statement at a
 * time and waits for its answer, but a simple query may hold several statements: sending the lock,
 * the write and the COMMIT as one such query is what keeps a group commit at one round trip
 * instead of four (two when the versions must be read first). Values travel as escaped literals
 * (sqlLiteral: pg's escapeLiteral, faster), the events as one JSON document unpacked by jsonb_to_recordset (parsed once: json_to_recordset would parse each
 * event's data a second time into its jsonb column).
 */

/**
 * pg's escapeLiteral, character for character, but with native replaces instead of its loop over every
 * character: a group's JSON is tens of kilobytes, and the loop cost more than the rest of the planning.
 */
export function sqlLiteral(value: string): string {
  const quoted = value.replace(/'/g, "''");
  return value.includes('\\') ? ` E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** Where a group goes back to, the append lock held, before it is replayed (see lockSql). */
export const GROUP_START = 'group_start';

/** The statements of lockSql: a query starting with it has its own results from this index on. */
export const LOCKED_RESULT_INDEX = 3;

/**
 * BEGIN, the advisory lock, then the savepoint a failed write goes back to with the lock still held
 * (ROLLBACK TO SAVEPOINT keeps both): a group that is replayed keeps its turn, so no later group
 * commits before it.
 */
function lockSql(lockKey: bigint): string {
  return ['BEGIN', `SELECT pg_advisory_xact_lock(${lockKey})`, `SAVEPOINT ${GROUP_START}`].join('; ');
}

/** The stream versions, read under the lock: its own statement, so its snapshot sees every group committed before. */
export function readVersionsSql(streamIds: readonly string[]): string {
  return `SELECT stream_id, version FROM streams WHERE stream_id = ANY(ARRAY[${streamIds.map(sqlLiteral).join(', ')}]::text[])`;
}

/** The lock, then the group's stream versions (checked groups): results from LOCKED_RESULT_INDEX. */
export function lockAndReadVersionsSql(lockKey: bigint, streamIds: readonly string[]): string {
  return `${lockSql(lockKey)}; ${readVersionsSql(streamIds)}`;
}

/**
 * The lock, then `writePartsSql`: the one round trip of a group planned from guesses
 * (planPredictedGroup). The write is a statement of its own after the lock, so its snapshot sees
 * every group committed before the lock was granted; its rows are the result at LOCKED_RESULT_INDEX.
 */
export function lockAndWritePartsSql(lockKey: bigint, parts: readonly PlannedPart[], recordedAt: string): string {
  return `${lockSql(lockKey)}; ${writePartsSql(parts, recordedAt)}`;
}

/**
 * The errors writePartsSql fails with when a stream is not at the version the plan numbered its events
 * from: behind it (the event before the first one is missing: a NULL position, refused by NOT NULL),
 * or past it (the first position is taken: the stream position's unique index).
 */
export const STREAM_MOVED = [
  { code: '23502', table: 'events', column: 'stream_position' },
  { code: '23505', constraint: 'events_stream_position_uq' },
] as const;

/**
 * One statement: the streams' new versions (upsert) and the events (INSERT ... RETURNING their
 * positions). It also checks that every stream is at the version its events were numbered from:
 * a stream's first event in the group must follow an event already in the log (`follows`, none for
 * a new stream), and its position must be free (the unique index); otherwise the statement fails
 * (STREAM_MOVED), and with it the group, before anything is visible. Under the append lock, after
 * reading the versions, the check always passes; after guessing them (planPredictedGroup) it is what
 * makes a wrong guess harmless. The check is a scalar subquery with LIMIT 1, one probe of the
 * (stream_id, stream_position) index per stream: an EXISTS there may be planned as a hash of the whole
 * log. The events are inserted in the order they were numbered (ORDER BY
 * n), so a stream's events take increasing global positions. A stream twice in the group is upserted
 * once, at its last version (ON CONFLICT may not touch a row twice in one statement).
 */
export function writePartsSql(parts: readonly PlannedPart[], recordedAt: string): string {
  const seen = new Set<string>();
  const events = parts.flatMap((part) => {
    const first = !seen.has(part.streamId);
    seen.add(part.streamId);
    return part.events.map((event, i) => ({
      event_id: event.eventId,
      stream_id: event.streamId,
      stream_position: event.streamPosition,
      // Later events follow rows of this same statement, which its own reads cannot see: only the first is checked.
      follows: first && i === 0 ? event.streamPosition - 1 : null,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
    }));
  });
  const versions = new Map<string, number>();
  for (const part of parts) versions.set(part.streamId, part.nextExpectedVersion);
  const streams = [...versions].map(([stream_id, version]) => ({ stream_id, version }));
  const at = `${sqlLiteral(recordedAt)}::timestamptz`;
  return `WITH upserted AS (
  INSERT INTO streams (stream_id, version, created_at, updated_at)
  SELECT s.stream_id, s.version, ${at}, ${at} FROM jsonb_to_recordset(${sqlLiteral(JSON.stringify(streams))}::jsonb) AS s(stream_id text, version int)
  ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at
)
INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata, recorded_at)
SELECT e.event_id, e.stream_id,
  CASE WHEN e.follows IS NULL OR e.follows = 0
    OR (SELECT 1 FROM events AS x WHERE x.stream_id = e.stream_id AND x.stream_position = e.follows LIMIT 1) = 1 THEN e.stream_position END,
  e.type, e.data, e.metadata, ${at}
FROM ROWS FROM (
  jsonb_to_recordset(${sqlLiteral(JSON.stringify(events))}::jsonb)
    AS (event_id text, stream_id text, stream_position int, follows int, type text, data jsonb, metadata jsonb)
) WITH ORDINALITY AS e(event_id, stream_id, stream_position, follows, type, data, metadata, n)
ORDER BY e.n
RETURNING global_position, event_id`;
}

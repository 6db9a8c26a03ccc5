import { DatabaseError, escapeIdentifier, type ClientBase } from 'pg';
import { getTableName } from 'drizzle-orm';
import { events as eventsTable, streams as streamsTable } from '../../database/schema-pg';
import type { StoredEvent } from '../event-store.types';
import { APPEND_LOCK_KEY, type PostgresEventStore } from './postgres-event-store';
import { EVENTS_CHANNEL } from './postgres-log-tail';

/**
 * The one place that writes the log around `append`: a copy of another store's log (the SQLite file)
 * keeps its events' ids, stream positions, recorded_at and global positions. Everything else writes
 * through `PostgresEventStore.append`.
 */

/** What a batch does to the `streams` table: each stream's version after the batch, and when it began and last moved. */
export interface StreamVersionRow {
  stream_id: string;
  version: number;
  created_at: string;
  updated_at: string;
}

/** One row per stream of the batch (global order), at its last event's stream position. */
export function streamVersionsOf(events: readonly StoredEvent[]): StreamVersionRow[] {
  const rows = new Map<string, StreamVersionRow>();
  for (const event of events) {
    const row = rows.get(event.streamId);
    if (row) {
      row.version = event.streamPosition;
      row.updated_at = event.recordedAt;
    } else {
      rows.set(event.streamId, { stream_id: event.streamId, version: event.streamPosition, created_at: event.recordedAt, updated_at: event.recordedAt });
    }
  }
  return [...rows.values()];
}

/** The first event whose data or metadata holds U+0000, which SQLite's TEXT keeps and jsonb refuses. */
export function firstEventWithNul(events: readonly StoredEvent[]): StoredEvent | undefined {
  return events.find((event) => holdsNul(event.data) || holdsNul(event.metadata));
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([key, inner]) => key.includes('\0') || holdsNul(inner));
  return false;
}

/** The log moved while the copy ran (another writer appended), or the batch does not follow the target's head. */
export class LogImportConflictError extends Error {}

const EVENTS = escapeIdentifier(getTableName(eventsTable));
const STREAMS = escapeIdentifier(getTableName(streamsTable));

/** The events with their own global positions (OVERRIDING the identity), as one JSON parameter. */
const INSERT_EVENTS = `INSERT INTO ${EVENTS} (global_position, event_id, stream_id, stream_position, type, data, metadata, recorded_at)
OVERRIDING SYSTEM VALUE
SELECT e.global_position, e.event_id, e.stream_id, e.stream_position, e.type, e.data, e.metadata, e.recorded_at
FROM json_to_recordset($1::json) AS e(global_position bigint, event_id text, stream_id text, stream_position int, type text, data jsonb, metadata jsonb, recorded_at timestamptz)`;

const UPSERT_STREAMS = `INSERT INTO ${STREAMS} (stream_id, version, created_at, updated_at)
SELECT s.stream_id, s.version, s.created_at, s.updated_at
FROM json_to_recordset($1::json) AS s(stream_id text, version int, created_at timestamptz, updated_at timestamptz)
ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at`;

/**
 * The identity's next value goes past the copied head, so the store's own appends continue after it.
 * (setval is not undone by a rollback; a sequence ahead of the log only leaves a gap, which readers skip.)
 */
const MOVE_SEQUENCE = `SELECT setval(pg_get_serial_sequence('${getTableName(eventsTable)}', 'global_position'), $1::bigint, true)`;

/**
 * Writes `events` (global order, the positions following `after`) in one transaction under the
 * store's append lock: all of them or none, and nothing else appends meanwhile. Refuses when the
 * target's head is not `after` (another writer got in), so the copy never interleaves with appends.
 */
export async function importEvents(store: PostgresEventStore, after: number, events: readonly StoredEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (events[0].globalPosition <= after)
    throw new LogImportConflictError(`event ${events[0].eventId} at position ${events[0].globalPosition} is not after ${after}`);
  const nul = firstEventWithNul(events);
  if (nul) {
    throw new Error(`event ${nul.eventId} (position ${nul.globalPosition}, ${nul.type}) holds a \\u0000 character, which PostgreSQL's jsonb cannot store`);
  }
  await store.transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK_KEY.toString()]);
    const head = await headUnderLock(client);
    if (head !== after) throw new LogImportConflictError(`the target log's head moved to ${head} (expected ${after}): something else appends to it`);
    const rows = events.map((e) => ({
      global_position: e.globalPosition,
      event_id: e.eventId,
      stream_id: e.streamId,
      stream_position: e.streamPosition,
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      recorded_at: e.recordedAt,
    }));
    try {
      await client.query(INSERT_EVENTS, [JSON.stringify(rows)]);
    } catch (error) {
      if (error instanceof DatabaseError && error.constraint === 'events_event_id_uq') {
        throw new LogImportConflictError(
          `an event id of positions ${events[0].globalPosition}-${events.at(-1)?.globalPosition} is already in the target log: ${error.detail}`,
        );
      }
      throw error;
    }
    await client.query(UPSERT_STREAMS, [JSON.stringify(streamVersionsOf(events))]);
    await client.query(MOVE_SEQUENCE, [String(events[events.length - 1].globalPosition)]);
    // Running instances' subscribers and async projections read on, as after an append.
    await client.query(`NOTIFY ${EVENTS_CHANNEL}`);
  });
}

async function headUnderLock(client: ClientBase): Promise<number> {
  const { rows } = await client.query<{ head: string | null }>(`SELECT max(global_position) AS head FROM ${EVENTS}`);
  return Number(rows[0].head ?? 0);
}

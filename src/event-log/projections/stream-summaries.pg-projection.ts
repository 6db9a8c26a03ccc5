import { getTableName } from 'drizzle-orm';
import { escapeIdentifier } from 'pg';
import { streamSummaries } from '../../database/schema-pg';
import { type StoredEvent, streamCategory } from '../../event-store';
import type { BatchInvariant, PostgresSetBasedForm } from '../../projections';

/** What one batch adds to a stream's row: its events counted, the first and last of them. */
export interface StreamSummaryDelta {
  stream_id: string;
  category: string;
  event_count: number;
  last_event_type: string;
  last_global_position: number;
  first_recorded_at: string;
  last_recorded_at: string;
}

/**
 * Folds a batch (global order) into one delta per stream. ON CONFLICT may not touch a row twice in
 * one statement, so a stream that appears several times in the batch becomes one row here.
 */
export function streamSummaryDeltas(events: readonly StoredEvent[]): StreamSummaryDelta[] {
  const byStream = new Map<string, StreamSummaryDelta>();
  for (const event of events) {
    const delta = byStream.get(event.streamId);
    if (delta) {
      delta.event_count += 1;
      delta.last_event_type = event.type;
      delta.last_global_position = event.globalPosition;
      delta.last_recorded_at = event.recordedAt;
    } else {
      byStream.set(event.streamId, {
        stream_id: event.streamId,
        category: streamCategory(event.streamId),
        event_count: 1,
        last_event_type: event.type,
        last_global_position: event.globalPosition,
        first_recorded_at: event.recordedAt,
        last_recorded_at: event.recordedAt,
      });
    }
  }
  return [...byStream.values()];
}

const TABLE = escapeIdentifier(getTableName(streamSummaries));

/**
 * The upsert, in one place: the deltas as one JSON parameter, a row per stream, the count added to
 * what is there (so an event applied twice would show as a count above the stream's version).
 */
const UPSERT = `INSERT INTO ${TABLE} (stream_id, category, event_count, last_event_type, last_global_position, first_recorded_at, last_recorded_at)
SELECT d.stream_id, d.category, d.event_count, d.last_event_type, d.last_global_position, d.first_recorded_at, d.last_recorded_at
FROM json_to_recordset($1::json) AS d(stream_id text, category text, event_count int, last_event_type text, last_global_position bigint, first_recorded_at timestamptz, last_recorded_at timestamptz)
ON CONFLICT (stream_id) DO UPDATE SET
  event_count = ${TABLE}.event_count + excluded.event_count,
  last_event_type = excluded.last_event_type,
  last_global_position = excluded.last_global_position,
  last_recorded_at = excluded.last_recorded_at`;

/**
 * What the upsert relies on: an event writes only its own stream's row, so the batch handled stream
 * by stream (each stream's events in their order) writes what it writes in global order. Each
 * stream's events then fold into one delta (count added, first time kept, last event taken).
 */
export const streamsAreIndependent: BatchInvariant = {
  name: 'streamsAreIndependent',
  statement: "an event writes only its own stream's row: the batch may be handled stream by stream",
  normalForm(events) {
    const byStream = new Map<string, StoredEvent[]>();
    for (const event of events) byStream.set(event.streamId, [...(byStream.get(event.streamId) ?? []), event]);
    return [...byStream.values()].flat();
  },
};

/**
 * `stream-summaries` on PostgreSQL: the set-based form of StreamSummariesProjection (one row per
 * stream with its event count and latest event). It handles every event, inside the append
 * transaction that holds the append lock, so one statement per group instead of one round trip per
 * event is what keeps the store's throughput (64 appenders, one run: about 9,000 events/s against
 * 1,400-2,200 for the per-event form). The same form runs inline, async (checkpointed) and in rebuilds.
 */
export const streamSummariesOnPostgres: PostgresSetBasedForm = {
  invariant: streamsAreIndependent,
  async apply(client, events) {
    await client.query(UPSERT, [JSON.stringify(streamSummaryDeltas(events))]);
  },
};

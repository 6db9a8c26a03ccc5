import { DatabaseError, type ClientBase, type Pool, type PoolClient, type QueryResult } from 'pg';
import { ExpectedVersionConflictError, InvalidAppendError } from '../event-store.errors';
import type { AppendResult, EventMetadata, StoredEvent, StreamAppend } from '../event-store.types';
import type { PlannedPart } from './append-plan';
import { STREAM_MOVED } from './append-sql';

/** The log's rows as node-postgres gives them, and the statements every reader of the log shares. */

export const EVENT_COLUMNS = 'global_position, event_id, stream_id, stream_position, type, data, metadata, recorded_at';

export interface EventRow {
  global_position: string | number;
  event_id: string;
  stream_id: string;
  stream_position: number;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recorded_at: Date;
}

export interface PositionRow {
  global_position: string;
  event_id: string;
}

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    globalPosition: Number(row.global_position),
    eventId: row.event_id,
    streamId: row.stream_id,
    streamPosition: row.stream_position,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at.toISOString(),
  };
}

/** Events after global position `after`, in global order, on `db`: the pool, or a transaction's connection. */
export async function readEventsAfter(db: Pool | ClientBase, after: number, limit: number): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE global_position > $1 ORDER BY global_position LIMIT $2`, [
    after,
    limit,
  ]);
  return rows.map(toStoredEvent);
}

/** The planned events with the positions the database gave them, as append results. */
export function toResults(parts: PlannedPart[], rows: PositionRow[], recordedAt: string): AppendResult[] {
  const positions = new Map(rows.map((row) => [row.event_id, Number(row.global_position)]));
  return parts.map((part) => ({
    streamId: part.streamId,
    nextExpectedVersion: part.nextExpectedVersion,
    events: part.events.map((event) => ({
      globalPosition: positions.get(event.eventId) as number,
      eventId: event.eventId,
      streamId: event.streamId,
      streamPosition: event.streamPosition,
      type: event.type,
      // The caller's objects, not copies, as the SQLite store hands them back.
      data: event.data,
      metadata: event.metadata,
      recordedAt,
    })),
  }));
}

/** A group's (or request's) events in global order: the order appends wrote them. */
export function eventsOf(results: readonly AppendResult[]): StoredEvent[] {
  return results.flatMap((result) => result.events);
}

/** What a request's own database error means to its caller, in the SQLite store's terms. */
export async function describeFailure(client: PoolClient, error: DatabaseError, parts: StreamAppend[]): Promise<unknown> {
  if (error.code === '23505' && error.constraint === 'events_event_id_uq') {
    return new InvalidAppendError(`An event id is already in the log: ${error.detail ?? error.message}`);
  }
  if ((error.code === '23505' && error.constraint === 'events_stream_position_uq') || isStreamMoved(error)) {
    // A writer that does not take the append lock got in first; report the stream's real version.
    const part = parts.find((p) => error.detail?.includes(p.streamId)) ?? parts[0];
    const { rows } = await client.query<{ version: number }>('SELECT version FROM streams WHERE stream_id = $1', [part.streamId]);
    return new ExpectedVersionConflictError(part.streamId, part.expectedVersion, rows[0]?.version ?? 0);
  }
  if (error.code === '22P05') {
    // jsonb cannot hold \u0000 in a string; SQLite's TEXT can.
    return new InvalidAppendError(`Event data cannot be stored in PostgreSQL: ${error.message}`);
  }
  return error;
}

/** The write's version check failed: a stream is not at the version its events were numbered from. */
export function isStreamMoved(error: unknown): boolean {
  return (
    error instanceof DatabaseError &&
    STREAM_MOVED.some(
      (moved) =>
        error.code === moved.code &&
        ('constraint' in moved ? error.constraint === moved.constraint : error.table === moved.table && error.column === moved.column),
    )
  );
}

/**
 * The results of a simple query, one per statement: pg resolves a multi-statement query to an array
 * but a single statement to its one result, and types both as one result.
 */
export async function statementResults(client: ClientBase, text: string): Promise<QueryResult[]> {
  const result: QueryResult | QueryResult[] = await client.query(text);
  return Array.isArray(result) ? result : [result];
}

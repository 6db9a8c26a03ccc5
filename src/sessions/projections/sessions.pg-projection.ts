import { getTableName } from 'drizzle-orm';
import { escapeIdentifier } from 'pg';
import { sessions } from '../../database/schema-pg';
import { type StoredEvent, sessionIdOfStream } from '../../event-store';
import type { BatchInvariant, PostgresSetBasedForm } from '../../projections';
import { changesSessionState } from '../session.decider';
import { changesSessionHeadline } from '../session-headline';
import { isSessionEvent } from '../session.events';

const TABLE = escapeIdentifier(getTableName(sessions));

/** The position moves of one batch, one row per session: its last event's position and time. */
const TOUCH = `UPDATE ${TABLE} AS s SET last_position = t.last_position, updated_at = t.updated_at
FROM jsonb_to_recordset($1::jsonb) AS t(session_id text, last_position bigint, updated_at text)
WHERE s.session_id = t.session_id`;

/**
 * Whether the event changes a session's row beyond its position: its state (status, config...) or its
 * headline (title, preview). Both forms handle these one by one; the rest only move the position.
 */
export function changesSessionRow(event: StoredEvent): boolean {
  return isSessionEvent(event) && (changesSessionState(event) || changesSessionHeadline(event));
}

/**
 * What the set-based form relies on: a position move (most session events: the CLI's records, audit)
 * sets only `last_position` and `updated_at`, which a state change writes but never reads. So the
 * moves may go after the state changes, and of a session's only its LAST event of the batch counts,
 * when that event is a move (a later state change writes its own position). Events off a session's
 * stream write nothing.
 */
export const lastPositionMoveWins: BatchInvariant = {
  name: 'lastPositionMoveWins',
  statement: "position moves commute with state changes, which never read the position: a session's last event sets it",
  normalForm(events) {
    const stateChanges: StoredEvent[] = [];
    const lastMove = new Map<string, StoredEvent>();
    for (const event of events) {
      const sessionId = sessionIdOfStream(event.streamId);
      if (!sessionId) continue;
      if (changesSessionRow(event)) {
        lastMove.delete(sessionId);
        stateChanges.push(event);
      } else {
        lastMove.delete(sessionId); // re-inserted: a Map keeps insertion order, the normal form keeps the moves' order
        lastMove.set(sessionId, event);
      }
    }
    return [...stateChanges, ...lastMove.values()];
  },
};

/**
 * `sessions` on PostgreSQL: the set-based form of SessionsProjection. Most session events only move
 * the row's position, one UPDATE each, a round trip each under the append lock; here they become one
 * statement per transaction (`lastPositionMoveWins`). Events that change a session's state run through
 * SessionsProjection's own handler, in order.
 */
export const sessionsOnPostgres: PostgresSetBasedForm = {
  invariant: lastPositionMoveWins,
  async apply(client, events, handle) {
    const moved = new Map<string, { session_id: string; last_position: number; updated_at: string }>();
    for (const event of events) {
      const sessionId = sessionIdOfStream(event.streamId);
      if (!sessionId) continue;
      if (changesSessionRow(event)) {
        moved.delete(sessionId);
        await handle([event]);
      } else {
        moved.set(sessionId, { session_id: sessionId, last_position: event.globalPosition, updated_at: event.recordedAt });
      }
    }
    if (moved.size > 0) await client.query(TOUCH, [JSON.stringify([...moved.values()])]);
  },
};

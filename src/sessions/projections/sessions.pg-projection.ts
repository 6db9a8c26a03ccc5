import { getTableName } from 'drizzle-orm';
import { escapeIdentifier, type ClientBase } from 'pg';
import { sessions } from '../../database/schema-pg';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type PgProjection, PostgresBatchForm, readModelsOn } from '../../event-store/postgres/pg-projection';
import { runProjectionAsync } from '../../event-store/projection';
import { sessionIdOfStream } from '../../event-store/stream-ids';
import { changesSessionState, isSessionEvent } from '../session.decider';
import { SessionsProjection } from './sessions.projection';

const TABLE = escapeIdentifier(getTableName(sessions));

/** The position moves of one batch, one row per session: its last event's position and time. */
const TOUCH = `UPDATE ${TABLE} AS s SET last_position = t.last_position, updated_at = t.updated_at
FROM jsonb_to_recordset($1::jsonb) AS t(session_id text, last_position bigint, updated_at text)
WHERE s.session_id = t.session_id`;

/**
 * `sessions` on PostgreSQL: the batch form of SessionsProjection. Most session events (the CLI's
 * records, audit) only move the row's position, one UPDATE each, a round trip each under the append
 * lock; here they become one statement per transaction. Events that change a session's state run
 * through SessionsProjection itself, in order. A session's position is its LAST event's, whichever
 * kind: a state change writes its own, so only a session whose last event of the batch is a move
 * gets one (the state changes read status and config, never the position, so the order between the
 * two does not show).
 */
@PostgresBatchForm()
export class SessionsPgProjection implements PgProjection {
  readonly name = 'sessions';
  readonly tables = [getTableName(sessions)];
  private readonly perEvent = new SessionsProjection();

  async apply(client: ClientBase, events: readonly StoredEvent[]): Promise<void> {
    const moved = new Map<string, { session_id: string; last_position: number; updated_at: string }>();
    for (const event of events) {
      const sessionId = sessionIdOfStream(event.streamId);
      if (!sessionId) continue;
      if (isSessionEvent(event) && changesSessionState(event)) {
        moved.delete(sessionId);
        await runProjectionAsync(this.perEvent.apply(event, readModelsOn(client)));
      } else {
        moved.set(sessionId, { session_id: sessionId, last_position: event.globalPosition, updated_at: event.recordedAt });
      }
    }
    if (moved.size > 0) await client.query(TOUCH, [JSON.stringify([...moved.values()])]);
  }
}

import { getTableName } from 'drizzle-orm';
import { escapeIdentifier, escapeLiteral } from 'pg';
import { sessions } from '../../database/schema-pg';
import { type StoredEvent, sessionIdOfStream } from '../../event-store';
import type { BatchInvariant, PostgresSetBasedForm } from '../../projections';
import { changesSessionState, TURN_ENDS_FROM } from '../session.decider';
import { changesSessionHeadline, evolveHeadline } from '../session-headline';
import { CLI_EVENT_PREFIX, isSessionEvent, SessionEvents } from '../session.events';

const TABLE = escapeIdentifier(getTableName(sessions));
const CLI_IDLE = `${CLI_EVENT_PREFIX}session.idle`;
const ENDS_TURN = `s.status IN (${TURN_ENDS_FROM.map((status) => escapeLiteral(status)).join(', ')})`;

/**
 * A transaction's folded sessions, one row each (FoldedSession): the last event's position and time,
 * then status and headline as the handler's evolve leaves them after a turn's events. A session with
 * only position moves has no turn and no headline (every CASE keeps the column). Named, so each
 * pooled connection parses it once.
 */
const APPLY_SESSIONS = {
  name: 'sessions_apply_batch',
  text: `UPDATE ${TABLE} AS s SET last_position = t.last_position, updated_at = t.updated_at,
  status = CASE WHEN t.sent THEN CASE WHEN t.idled THEN 'idle' ELSE 'running' END
    WHEN t.idled AND ${ENDS_TURN} THEN 'idle' ELSE s.status END,
  status_reason = CASE WHEN t.sent OR (t.idled AND ${ENDS_TURN}) THEN NULL ELSE s.status_reason END,
  title = coalesce(t.last_title, s.title, t.first_message_title),
  preview = coalesce(t.last_preview, s.preview)
FROM jsonb_to_recordset($1::jsonb) AS t(session_id text, last_position bigint, updated_at text, sent boolean, idled boolean,
  last_title text, first_message_title text, last_preview text)
WHERE s.session_id = t.session_id`,
};

/**
 * Whether the event changes a session's row beyond its position: its state (status, config...) or its
 * headline (title, preview). The handler reads the row for these; the rest only move the position.
 */
export function changesSessionRow(event: StoredEvent): boolean {
  return isSessionEvent(event) && (changesSessionState(event) || changesSessionHeadline(event));
}

/**
 * A row change the set-based form folds: a turn's start (`session.message_sent`), its end (the main
 * agent's `session.idle`) and the headline's changes (title, messages). Their status is set whatever
 * it was (sent), or from a fixed few (idle); the headline keeps the last title, the first message as
 * title when there is none, and the last message as preview: what the fold's UPDATE computes.
 */
function foldsIntoTurn(event: StoredEvent): boolean {
  return event.type === SessionEvents.messageSent || event.type === CLI_IDLE || !changesSessionState(event);
}

/** One folded session: what APPLY_SESSIONS sets on its row. */
interface FoldedSession {
  session_id: string;
  last_position: number;
  updated_at: string;
  sent: boolean;
  idled: boolean;
  last_title: string | null;
  first_message_title: string | null;
  last_preview: string | null;
}

interface SessionBatch {
  /** Row changes of sessions the form does not fold (created, started, ...): the handler's, in order. */
  handled: StoredEvent[];
  /** Per folded session, or session whose last event is a move: its row and the events it stands for. */
  folded: Map<string, { row: FoldedSession; events: StoredEvent[] }>;
}

/**
 * A batch split as the set-based form applies it. A session with a row change the form does not fold
 * has its changes handled in order, and at most its last event folded, when that is a move. Every
 * other session is folded whole: its moves and turn events in one row.
 */
function planSessions(events: readonly StoredEvent[]): SessionBatch {
  const bySession = new Map<string, StoredEvent[]>();
  const unfolded = new Set<string>();
  for (const event of events) {
    const sessionId = sessionIdOfStream(event.streamId);
    if (!sessionId) continue;
    const own = bySession.get(sessionId);
    if (own) own.push(event);
    else bySession.set(sessionId, [event]);
    if (changesSessionRow(event) && !foldsIntoTurn(event)) unfolded.add(sessionId);
  }
  const handled: StoredEvent[] = [];
  const folded = new Map<string, { row: FoldedSession; events: StoredEvent[] }>();
  for (const event of events) {
    const sessionId = sessionIdOfStream(event.streamId);
    if (sessionId && unfolded.has(sessionId) && changesSessionRow(event)) handled.push(event);
  }
  for (const [sessionId, own] of bySession) {
    const last = own[own.length - 1];
    if (unfolded.has(sessionId)) {
      if (!changesSessionRow(last)) folded.set(sessionId, { row: foldSession(sessionId, [last]), events: [last] });
      continue;
    }
    // Moves before the session's last event are overwritten by it: the row's events are its changes and its last.
    const kept = own.filter((event, i) => i === own.length - 1 || changesSessionRow(event));
    folded.set(sessionId, { row: foldSession(sessionId, own), events: kept });
  }
  return { handled, folded };
}

const NO_HEADLINE = { title: null, preview: null };

/** A folded session's row from its events, in order (see APPLY_SESSIONS). */
function foldSession(sessionId: string, events: readonly StoredEvent[]): FoldedSession {
  const last = events[events.length - 1];
  const row: FoldedSession = {
    session_id: sessionId,
    last_position: last.globalPosition,
    updated_at: last.recordedAt,
    sent: false,
    idled: false,
    last_title: null,
    first_message_title: null,
    last_preview: null,
  };
  for (const event of events) {
    if (!changesSessionRow(event)) continue;
    if (event.type === SessionEvents.messageSent) {
      row.sent = true;
      row.idled = false; // an idle counts only after the turn's start
    } else if (changesSessionState(event)) row.idled = true;
    // The headline from none: a title change gives its title, a message its preview (and, the user's, a title).
    const headline = evolveHeadline(NO_HEADLINE, event);
    if (headline === NO_HEADLINE) continue;
    if (event.type === SessionEvents.messageSent) {
      row.first_message_title ??= headline.title;
      row.last_preview = headline.preview;
    } else if (headline.preview === null) row.last_title = headline.title;
    else row.last_preview = headline.preview;
  }
  return row;
}

/**
 * What the set-based form relies on: a session's events write only its row and read only it, so
 * sessions commute; a position move sets only `last_position` and `updated_at`, which a change writes
 * but never reads, so of a session's moves only its last event's counts, when that is a move. The
 * normal form: the changes the form leaves to the handler, in order; then each folded session's
 * changes in order and its last event (one UPDATE computes what they leave).
 */
export const sessionTurnsFold: BatchInvariant = {
  name: 'sessionTurnsFold',
  statement: "sessions commute, and a session's position moves are overwritten by its last event: its changes and last event are its row",
  normalForm(events) {
    const { handled, folded } = planSessions(events);
    return [...handled, ...[...folded.values()].flatMap((session) => session.events)];
  },
};

/**
 * `sessions` on PostgreSQL: the set-based form of SessionsProjection. Most session events only move
 * the row's position, and a turn's start, end and messages change its status and headline: through
 * the handler a read and an UPDATE each, a round trip each under the append lock. Here they become
 * one statement per transaction (APPLY_SESSIONS, `sessionTurnsFold`); the other changes (created,
 * started, interrupted, ...) run through SessionsProjection's own handler first, in order.
 */
export const sessionsOnPostgres: PostgresSetBasedForm = {
  invariant: sessionTurnsFold,
  async apply(client, events, handle) {
    const { handled, folded } = planSessions(events);
    for (const event of handled) await handle([event]);
    if (folded.size > 0) await client.query({ ...APPLY_SESSIONS, values: [JSON.stringify([...folded.values()].map((session) => session.row))] });
  },
};

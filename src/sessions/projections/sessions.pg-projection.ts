import { getTableName } from 'drizzle-orm';
import { escapeIdentifier, escapeLiteral } from 'pg';
import { sessions } from '../../database/schema-pg';
import { type StoredEvent, sessionIdOfStream } from '../../event-store';
import type { BatchInvariant, PostgresSetBasedForm } from '../../projections';
import { changesSessionState, evolveSession, initialSessionState, TURN_ENDS_FROM } from '../session.decider';
import { changesSessionHeadline, evolveHeadline } from '../session-headline';
import { CLI_EVENT_PREFIX, isSessionEvent, type SessionCreated, SessionEvents, type SessionStatus } from '../session.events';

const TABLE = escapeIdentifier(getTableName(sessions));
const CLI_IDLE = `${CLI_EVENT_PREFIX}session.idle`;
const ENDS_TURN = `s.status IN (${TURN_ENDS_FROM.map((status) => escapeLiteral(status)).join(', ')})`;

/**
 * A transaction's folded sessions, one row each (FoldedSession): the last event's position and time,
 * then status, headline, protocol version and owner as the handler's evolve leaves them. A session
 * with only position moves has no status set, no idle and no headline (every CASE and coalesce keeps
 * the column). Named, so each pooled connection parses it once.
 */
const APPLY_SESSIONS = {
  name: 'sessions_apply_batch',
  text: `UPDATE ${TABLE} AS s SET last_position = t.last_position, updated_at = t.updated_at,
  status = CASE WHEN t.set_status IS NOT NULL THEN CASE WHEN t.idled THEN 'idle' ELSE t.set_status END
    WHEN t.idled AND ${ENDS_TURN} THEN 'idle' ELSE s.status END,
  status_reason = CASE WHEN t.set_status IS NOT NULL OR (t.idled AND ${ENDS_TURN}) THEN NULL ELSE s.status_reason END,
  title = coalesce(t.last_title, s.title, t.first_message_title),
  preview = coalesce(t.last_preview, s.preview),
  protocol_version = coalesce(t.protocol_version, s.protocol_version),
  owner_instance = coalesce(t.owner_instance, s.owner_instance)
FROM jsonb_to_recordset($1::jsonb) AS t(session_id text, last_position bigint, updated_at text, set_status text, idled boolean,
  last_title text, first_message_title text, last_preview text, protocol_version integer, owner_instance text)
WHERE s.session_id = t.session_id`,
};

/** A transaction's new sessions, one row each (createdRowOf), before APPLY_SESSIONS folds what follows them. */
const INSERT_CREATED = {
  name: 'sessions_insert_batch',
  text: `INSERT INTO ${TABLE} (session_id, status, model, config, protocol_version, last_position, created_at, updated_at, owner_instance)
SELECT t.session_id, t.status, t.model, t.config, t.protocol_version, t.last_position, t.created_at, t.updated_at, t.owner_instance
FROM jsonb_to_recordset($1::jsonb) AS t(session_id text, status text, model text, config text, protocol_version integer,
  last_position bigint, created_at text, updated_at text, owner_instance text)`,
};

/** A `session.created` event's row, as both forms insert it (drizzle's field names); undefined when its config has no model. */
export function createdRowOf(event: SessionCreated & StoredEvent) {
  const config: unknown = event.data.config;
  if (typeof config !== 'object' || config === null) return undefined;
  const state = evolveSession(initialSessionState(), event);
  return {
    sessionId: sessionIdOfStream(event.streamId) ?? '',
    status: state.status as SessionStatus,
    model: event.data.config.model,
    config: JSON.stringify(event.data.config),
    protocolVersion: 0,
    lastPosition: event.globalPosition,
    createdAt: event.recordedAt,
    updatedAt: event.recordedAt,
    ownerInstance: ownerInstanceOf(event),
  };
}

/** The instance that recorded the event (`metadata.instanceId`, set by commands that take a session live); null before leases. */
export function ownerInstanceOf(event: StoredEvent): string | null {
  const instanceId = event.metadata.instanceId;
  return typeof instanceId === 'string' && instanceId ? instanceId : null;
}

/**
 * Whether the event changes a session's row beyond its position: its state (status, config...) or its
 * headline (title, preview). The handler reads the row for these; the rest only move the position.
 */
export function changesSessionRow(event: StoredEvent): boolean {
  return isSessionEvent(event) && (changesSessionState(event) || changesSessionHeadline(event));
}

/**
 * A row change the set-based form folds: the CLI's start (`session.started`), a turn's start
 * (`session.message_sent`) and end (the main agent's `session.idle`), the headline's changes (title,
 * messages). Start and turn set their status whatever it was, idle from a fixed few; the headline
 * keeps the last title, the first message as title when there is none, the last message as preview;
 * a start's protocol version and owner are kept when given: what APPLY_SESSIONS computes.
 */
function foldsIntoTurn(event: StoredEvent): boolean {
  return event.type === SessionEvents.started || event.type === SessionEvents.messageSent || event.type === CLI_IDLE || !changesSessionState(event);
}

/** One folded session: what APPLY_SESSIONS sets on its row. */
interface FoldedSession {
  session_id: string;
  last_position: number;
  updated_at: string;
  /** The status the last start or turn set (`active`, `running`), an idle after it counting on top. */
  set_status: string | null;
  idled: boolean;
  last_title: string | null;
  first_message_title: string | null;
  last_preview: string | null;
  protocol_version: number | null;
  owner_instance: string | null;
}

interface PlannedSession {
  /** Its `session.created`, inserted by INSERT_CREATED (what came before it in the batch found no row). */
  created?: { event: StoredEvent; row: Record<string, unknown> };
  /** Folded by APPLY_SESSIONS, unless nothing follows `created`. */
  row?: FoldedSession;
  /** The events the form stands for, in the handler's order: the normal form's part for this session. */
  events: StoredEvent[];
}

interface SessionBatch {
  /** Row changes of sessions the form does not fold (resumed, interrupted, ...): the handler's, in order. */
  handled: StoredEvent[];
  sessions: PlannedSession[];
}

const isCreated = (event: StoredEvent): event is SessionCreated & StoredEvent => event.type === SessionEvents.created;

/** The session's events the fold stands for: its changes, then its last event when that is a move (it sets the position). */
function changesAndLast(events: readonly StoredEvent[]): StoredEvent[] {
  return events.filter((event, i) => i === events.length - 1 || changesSessionRow(event));
}

/**
 * A batch split as the set-based form applies it. A session with a row change the form does not fold
 * (or two creates, or a create without a config) has its changes handled in order, and at most its
 * last event folded, when that is a move. Every other session is folded whole: its create inserted
 * (its events before it dropped: they found no row), the rest in one row of APPLY_SESSIONS.
 */
function planSessions(events: readonly StoredEvent[]): SessionBatch {
  const bySession = new Map<string, StoredEvent[]>();
  for (const event of events) {
    const sessionId = sessionIdOfStream(event.streamId);
    if (!sessionId) continue;
    const own = bySession.get(sessionId);
    if (own) own.push(event);
    else bySession.set(sessionId, [event]);
  }
  const unfolded = new Set<string>();
  const sessions: PlannedSession[] = [];
  for (const [sessionId, own] of bySession) {
    const creates = own.filter(isCreated);
    const created = creates.length === 1 ? createdRowOf(creates[0]) : undefined;
    const foldable = own.every((event) => !changesSessionRow(event) || isCreated(event) || foldsIntoTurn(event));
    if (!foldable || creates.length > 1 || (creates.length === 1 && !created)) {
      unfolded.add(sessionId);
      const last = own[own.length - 1];
      if (!changesSessionRow(last)) sessions.push({ row: foldSession(sessionId, [last]), events: [last] });
      continue;
    }
    const rest = creates.length === 1 ? own.slice(own.indexOf(creates[0]) + 1) : own;
    sessions.push({
      created: creates.length === 1 && created ? { event: creates[0], row: created } : undefined,
      row: rest.length > 0 ? foldSession(sessionId, rest) : undefined,
      events: [...creates, ...changesAndLast(rest)],
    });
  }
  const handled = events.filter((event) => {
    const sessionId = sessionIdOfStream(event.streamId);
    return sessionId !== undefined && unfolded.has(sessionId) && changesSessionRow(event);
  });
  return { handled, sessions };
}

const NO_HEADLINE = { title: null, preview: null };

/** A folded session's row from its events, in order (see APPLY_SESSIONS). */
function foldSession(sessionId: string, events: readonly StoredEvent[]): FoldedSession {
  const last = events[events.length - 1];
  const row: FoldedSession = {
    session_id: sessionId,
    last_position: last.globalPosition,
    updated_at: last.recordedAt,
    set_status: null,
    idled: false,
    last_title: null,
    first_message_title: null,
    last_preview: null,
    protocol_version: null,
    owner_instance: null,
  };
  for (const event of events) {
    if (!changesSessionRow(event)) continue;
    if (event.type === SessionEvents.started) {
      // What the handler's update writes for a start: active, and its protocol version and owner when given.
      row.set_status = 'active';
      row.idled = false;
      const protocolVersion = (event.data as { protocolVersion?: number }).protocolVersion;
      if (protocolVersion !== undefined && protocolVersion !== null) row.protocol_version = protocolVersion;
      row.owner_instance = ownerInstanceOf(event) ?? row.owner_instance;
    } else if (event.type === SessionEvents.messageSent) {
      row.set_status = 'running';
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
 * but never reads, so of a session's moves only its last event's counts, when that is a move; what
 * precedes a session's create finds no row. The normal form: the changes the form leaves to the
 * handler, in order; then each folded session's create, its changes after it, in order, and its last
 * event (INSERT_CREATED and APPLY_SESSIONS compute what they leave).
 */
export const sessionTurnsFold: BatchInvariant = {
  name: 'sessionTurnsFold',
  statement: "sessions commute, a session's position moves are overwritten by its last event, nothing before its create finds its row",
  normalForm(events) {
    const { handled, sessions } = planSessions(events);
    return [...handled, ...sessions.flatMap((session) => session.events)];
  },
};

/**
 * `sessions` on PostgreSQL: the set-based form of SessionsProjection. Most session events only move
 * the row's position, and a session's create, start, a turn's start, end and messages change its
 * row: through the handler an INSERT, or a read and an UPDATE, a round trip each under the append
 * lock. Here they become at most two statements per transaction (INSERT_CREATED when sessions are
 * created, APPLY_SESSIONS; `sessionTurnsFold`); the other changes (resumed, interrupted, destroyed,
 * ...) run through SessionsProjection's own handler first, in order.
 */
export const sessionsOnPostgres: PostgresSetBasedForm = {
  invariant: sessionTurnsFold,
  async apply(client, events, handle) {
    const { handled, sessions } = planSessions(events);
    for (const event of handled) await handle([event]);
    const created = sessions.flatMap((session) => (session.created ? [insertedColumns(session.created.row)] : []));
    if (created.length > 0) await client.query({ ...INSERT_CREATED, values: [JSON.stringify(created)] });
    const rows = sessions.flatMap((session) => (session.row ? [session.row] : []));
    if (rows.length > 0) await client.query({ ...APPLY_SESSIONS, values: [JSON.stringify(rows)] });
  },
};

function insertedColumns(row: Record<string, unknown>): Record<string, unknown> {
  return {
    session_id: row.sessionId,
    status: row.status,
    model: row.model,
    config: row.config,
    protocol_version: row.protocolVersion,
    last_position: row.lastPosition,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    owner_instance: row.ownerInstance,
  };
}

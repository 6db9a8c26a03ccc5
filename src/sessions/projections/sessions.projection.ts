import { eq, sql } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database';
import { type StoredEvent, sessionIdOfStream } from '../../event-store';
import { onePrepared, type ProjectionWork, PerEventProjection, ReadModelProjection, run, runPrepared } from '../../projections';
import type { SessionConfig } from '../session-config';
import { changesSessionRow, createdRowOf, ownerInstanceOf, sessionsOnPostgres } from './sessions.pg-projection';
import { evolveSession, type SessionState } from '../session.decider';
import { evolveHeadline } from '../session-headline';
import { isSessionEvent, SessionEvents, type SessionStatus } from '../session.events';

/** Inline: the `sessions` table, one row per session (status, config, title, preview), never behind its stream. */
@ReadModelProjection()
export class SessionsProjection extends PerEventProjection {
  readonly name = 'sessions';
  readonly mode = 'inline';
  readonly tables = ['sessions'] as const;
  readonly setBased = { postgres: sessionsOnPostgres };

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    const sessionId = sessionIdOfStream(event.streamId);
    if (!sessionId) return;
    const { sessions } = db.tables;
    if (!isSessionEvent(event) || !changesSessionRow(event)) {
      // Most session events (CLI records, audit) only move the position.
      yield* runPrepared(db, 'sessions_touch', touchSession, { sessionId, position: event.globalPosition, at: event.recordedAt });
      return;
    }
    if (event.type === SessionEvents.created) {
      const row = createdRowOf(event);
      if (!row) throw new TypeError(`session.created of ${sessionId} has no config`);
      yield* run(db.orm.insert(sessions).values(row));
      return;
    }
    const row = yield* onePrepared(db, 'sessions_row', selectSessionRow, { sessionId });
    if (!row) return;
    // The row is the session's state as the same evolve left it; config is parsed only when it can change.
    const configChanges = event.type === SessionEvents.subAgentsChanged;
    const before: SessionState = {
      status: row.status as SessionStatus,
      statusReason: row.statusReason ?? undefined,
      config: configChanges ? (JSON.parse(row.config) as SessionConfig) : undefined,
      teamAgents: [],
      cliCreated: false,
    };
    const after = evolveSession(before, event);
    const headlineAfter = evolveHeadline({ title: row.title, preview: row.preview }, event);
    // Taken live (again): held from now on by the instance that recorded it, when it said (none before leases).
    const takenLiveBy = event.type === SessionEvents.started || event.type === SessionEvents.resumed ? ownerInstanceOf(event) : null;
    // One prepared update for every state change: what did not change is written back as it was read,
    // and a null config / protocol version / owner keeps the column (see updateSessionRow).
    yield* runPrepared(db, 'sessions_update', updateSessionRow, {
      sessionId,
      position: event.globalPosition,
      at: event.recordedAt,
      status: after.status,
      statusReason: after.statusReason ?? null,
      title: headlineAfter.title,
      preview: headlineAfter.preview,
      config: configChanges && after.config !== before.config ? JSON.stringify(after.config) : null,
      protocolVersion: event.type === SessionEvents.started ? (event.data.protocolVersion ?? null) : null,
      ownerInstance: takenLiveBy,
    });
  }
}

/** What a state change reads of its session's row: built once per connection. */
function selectSessionRow(db: ReadModelDatabase) {
  const { sessions } = db.tables;
  return db.orm
    .select({
      status: sessions.status,
      statusReason: sessions.statusReason,
      config: sessions.config,
      title: sessions.title,
      preview: sessions.preview,
    })
    .from(sessions)
    .where(eq(sessions.sessionId, sql.placeholder('sessionId')));
}

/**
 * A session's state change, built once per connection: status, reason and headline are always set
 * (unchanged ones to what was read), config, protocol version and owner only when given (not null):
 * none of the three is ever set to null by an event.
 */
function updateSessionRow(db: ReadModelDatabase) {
  const { sessions } = db.tables;
  const unlessNull = (name: string, column: typeof sessions.config | typeof sessions.protocolVersion | typeof sessions.ownerInstance) =>
    sql`coalesce(${sql.placeholder(name)}, ${column})`;
  return db.orm
    .update(sessions)
    .set({
      lastPosition: sql`${sql.placeholder('position')}`,
      updatedAt: sql`${sql.placeholder('at')}`,
      status: sql`${sql.placeholder('status')}`,
      statusReason: sql`${sql.placeholder('statusReason')}`,
      title: sql`${sql.placeholder('title')}`,
      preview: sql`${sql.placeholder('preview')}`,
      config: unlessNull('config', sessions.config),
      protocolVersion: unlessNull('protocolVersion', sessions.protocolVersion),
      ownerInstance: unlessNull('ownerInstance', sessions.ownerInstance),
    })
    .where(eq(sessions.sessionId, sql.placeholder('sessionId')));
}

/** A session's position moved on (most of its events): built once per connection, it runs for nearly every event. */
function touchSession(db: ReadModelDatabase) {
  const { sessions } = db.tables;
  return db.orm
    .update(sessions)
    .set({ lastPosition: sql`${sql.placeholder('position')}`, updatedAt: sql`${sql.placeholder('at')}` })
    .where(eq(sessions.sessionId, sql.placeholder('sessionId')));
}

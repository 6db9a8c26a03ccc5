import { eq, sql } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database/read-model-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { one, type ProjectionWork, PerEventProjection, ReadModelProjection, run, runPrepared } from '../../projections/projection';
import { sessionIdOfStream } from '../../event-store/stream-ids';
import type { SessionConfig } from '../session-config';
import { changesSessionRow, sessionsOnPostgres } from './sessions.pg-projection';
import { evolveSession, type SessionState, initialSessionState } from '../session.decider';
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
      const state = evolveSession(initialSessionState(), event);
      yield* run(
        db.orm.insert(sessions).values({
          sessionId,
          status: state.status as SessionStatus,
          model: event.data.config.model,
          config: JSON.stringify(event.data.config),
          protocolVersion: 0,
          lastPosition: event.globalPosition,
          createdAt: event.recordedAt,
          updatedAt: event.recordedAt,
          ownerInstance: ownerInstanceOf(event),
        }),
      );
      return;
    }
    const row = yield* one(
      db.orm
        .select({
          status: sessions.status,
          statusReason: sessions.statusReason,
          config: sessions.config,
          title: sessions.title,
          preview: sessions.preview,
        })
        .from(sessions)
        .where(eq(sessions.sessionId, sessionId)),
    );
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
    const headline = { title: row.title, preview: row.preview };
    const headlineAfter = evolveHeadline(headline, event);
    // Taken live (again): held from now on by the instance that recorded it, when it said (none before leases).
    const takenLiveBy = event.type === SessionEvents.started || event.type === SessionEvents.resumed ? ownerInstanceOf(event) : null;
    yield* run(
      db.orm
        .update(sessions)
        .set({
          lastPosition: event.globalPosition,
          updatedAt: event.recordedAt,
          ...(after.status !== before.status || after.statusReason !== before.statusReason
            ? { status: after.status, statusReason: after.statusReason ?? null }
            : {}),
          ...(configChanges && after.config !== before.config ? { config: JSON.stringify(after.config) } : {}),
          ...(event.type === SessionEvents.started ? { protocolVersion: event.data.protocolVersion } : {}),
          ...(takenLiveBy ? { ownerInstance: takenLiveBy } : {}),
          ...(headlineAfter !== headline ? headlineAfter : {}),
        })
        .where(eq(sessions.sessionId, sessionId)),
    );
  }
}

/** A session's position moved on (most of its events): built once per connection, it runs for nearly every event. */
function touchSession(db: ReadModelDatabase) {
  const { sessions } = db.tables;
  return db.orm
    .update(sessions)
    .set({ lastPosition: sql`${sql.placeholder('position')}`, updatedAt: sql`${sql.placeholder('at')}` })
    .where(eq(sessions.sessionId, sql.placeholder('sessionId')));
}

/** The instance that recorded the event (`metadata.instanceId`, set by commands that take a session live); null before leases. */
function ownerInstanceOf(event: StoredEvent): string | null {
  const instanceId = event.metadata.instanceId;
  return typeof instanceId === 'string' && instanceId ? instanceId : null;
}

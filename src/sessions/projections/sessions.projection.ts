import { eq, sql } from 'drizzle-orm';
import { textOf } from '../../common/text-of';
import { sessions } from '../../database/schema';
import { type Orm, preparedPerConnection } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type Projection, ReadModelProjection } from '../../event-store/projection';
import { sessionIdOfStream } from '../../event-store/stream-ids';
import {
  CLI_EVENT_PREFIX,
  type SessionCreatedData,
  SessionEvents,
  type RecordedCliEventData,
  type SessionInterruptedData,
  type SessionStartedData,
  type SessionStatus,
} from '../session.events';

/** Inline: the `sessions` table, one row per session, never behind its stream. */
@ReadModelProjection()
export class SessionsProjection implements Projection {
  readonly name = 'sessions';
  readonly mode = 'inline';
  readonly tables = [sessions];


  apply(event: StoredEvent, orm: Orm): void {
    const sessionId = sessionIdOfStream(event.streamId);
    if (!sessionId) return;
    if (event.type === SessionEvents.created) {
      const data = event.data as unknown as SessionCreatedData;
      orm
        .insert(sessions)
        .values({
          sessionId,
          status: 'starting',
          model: data.config.model,
          config: JSON.stringify(data.config),
          protocolVersion: 0,
          lastPosition: event.globalPosition,
          createdAt: event.recordedAt,
          updatedAt: event.recordedAt,
        })
        .run();
      return;
    }
    if (event.type === SessionEvents.subAgentsChanged) {
      const row = orm.select({ config: sessions.config }).from(sessions).where(eq(sessions.sessionId, sessionId)).get();
      if (row) {
        const config = { ...(JSON.parse(row.config) as Record<string, unknown>), subAgents: event.data.subAgents };
        orm.update(sessions).set({ config: JSON.stringify(config) }).where(eq(sessions.sessionId, sessionId)).run();
      }
    }
    const change = statusChange(event);
    const started = event.type === SessionEvents.started ? (event.data as unknown as SessionStartedData) : undefined;
    if (!change && !started) {
      // Most session events (CLI records, audit) only move the position: a prepared statement, not a built query.
      touchFor(orm).run({ sessionId, lastPosition: event.globalPosition, updatedAt: event.recordedAt });
      return;
    }
    orm
      .update(sessions)
      .set({
        lastPosition: event.globalPosition,
        updatedAt: event.recordedAt,
        ...(change ? { status: change.status, statusReason: change.reason ?? null } : {}),
        ...(started ? { protocolVersion: started.protocolVersion } : {}),
      })
      .where(eq(sessions.sessionId, sessionId))
      .run();
  }
}

const touchFor = preparedPerConnection((orm: Orm) =>
  orm
    .update(sessions)
    .set({ lastPosition: sql`${sql.placeholder('lastPosition')}`, updatedAt: sql`${sql.placeholder('updatedAt')}` })
    .where(eq(sessions.sessionId, sql.placeholder('sessionId')))
    .prepare(),
);

function statusChange(event: StoredEvent): { status: SessionStatus; reason?: string } | undefined {
  switch (event.type) {
    case SessionEvents.started:
      return { status: 'active' };
    case SessionEvents.startFailed:
      return { status: 'failed', reason: textOf(event.data.error) };
    case SessionEvents.messageSent:
      return { status: 'running' };
    case SessionEvents.messageFailed:
      return { status: 'idle', reason: textOf(event.data.error) };
    case `${CLI_EVENT_PREFIX}session.idle`:
      // A sub-agent's idle (protocol 3 tags it with agentId) does not end the parent's turn.
      return (event.data as unknown as RecordedCliEventData).agentId ? undefined : { status: 'idle' };
    case SessionEvents.interrupted:
      return { status: 'interrupted', reason: (event.data as unknown as SessionInterruptedData).reason };
    case SessionEvents.resumed:
      return { status: 'idle' };
    case SessionEvents.resumeFailed:
      return { status: 'interrupted', reason: textOf(event.data.error) };
    case SessionEvents.destroyed:
      return { status: 'destroyed', reason: textOf(event.data.reason) || undefined };
    default:
      return undefined;
  }
}

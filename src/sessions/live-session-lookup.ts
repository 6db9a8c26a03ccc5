import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { sessions } from '../database/schema';
import { SqliteDatabase } from '../database/sqlite-database';
import type { LiveSession } from './live-session';
import { SessionNotFoundError, SessionNotLiveError } from './session.errors';
import type { SessionStatus } from './session.events';
import { SessionRegistry } from './session-registry';

/**
 * The live session a command acts on. A destroyed or failed session is no longer live but still
 * exists (GET answers it): a command on it is a 409 naming its status, never a 404.
 */
@Injectable()
export class LiveSessionLookup {
  constructor(
    private readonly registry: SessionRegistry,
    private readonly database: SqliteDatabase,
  ) {}

  get(sessionId: string): LiveSession {
    const live = this.registry.get(sessionId);
    if (live) return live;
    const row = this.database.orm
      .select({ status: sessions.status, statusReason: sessions.statusReason })
      .from(sessions)
      .where(eq(sessions.sessionId, sessionId))
      .get();
    if (!row) throw new SessionNotFoundError(sessionId);
    throw new SessionNotLiveError(sessionId, row.status as SessionStatus, row.statusReason ?? undefined);
  }
}

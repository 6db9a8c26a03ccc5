import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { ReadModelDatabase } from '../database/read-model-database';
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
    private readonly db: ReadModelDatabase,
  ) {}

  async get(sessionId: string): Promise<LiveSession> {
    const live = this.registry.get(sessionId);
    if (live) return live;
    const { sessions } = this.db.tables;
    const [row] = await this.db.orm
      .select({ status: sessions.status, statusReason: sessions.statusReason })
      .from(sessions)
      .where(eq(sessions.sessionId, sessionId))
      .limit(1);
    // Asked again after the read: a create registers its session only once the CLI is up, after its row,
    // so one registered while we read is live now, not a 409 naming the status the row had.
    const now = this.registry.get(sessionId);
    if (now) return now;
    if (!row) throw new SessionNotFoundError(sessionId);
    throw new SessionNotLiveError(sessionId, row.status as SessionStatus, row.statusReason ?? undefined);
  }
}

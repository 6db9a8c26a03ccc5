import { Injectable } from '@nestjs/common';
import { HeldWork } from './held-work';
import type { LiveSession } from './live-session';
import { SessionNotFoundError, SessionNotLiveError } from './session.errors';
import type { SessionStatus } from './session.events';
import { SessionLifecycle } from './session-lifecycle';
import { SessionRegistry } from './session-registry';

/**
 * The live session a command acts on. A destroyed or failed session is no longer live but still
 * exists (GET answers it): a command on it is a 409 naming its status, never a 404. With several
 * instances, the one place that decides where a session is held: one this process took live is its
 * own; one another running instance holds is a 409 naming that instance (`owned_by_other_instance`);
 * one nobody holds is taken here (interrupted, ready to resume).
 */
@Injectable()
export class LiveSessionLookup {
  constructor(
    private readonly registry: SessionRegistry,
    private readonly held: HeldWork,
    private readonly lifecycle: SessionLifecycle,
  ) {}

  /** `what` names the request's subject in a 409 (a run's session answers for the run). */
  async get(sessionId: string, what?: string): Promise<LiveSession> {
    const live = this.registry.get(sessionId);
    // Created or resumed on this process's CLI: held here, no read needed.
    if (live && live.cliGeneration > 0) return live;
    // Loaded at start, taken over, or unknown here: another instance may hold it now.
    const found = await this.held.assertNotHeldElsewhere(sessionId, what);
    if (live) return live;
    // Asked again after the read: a create registers its session only once the CLI is up, after its row,
    // so one registered while we read is live now, not a 409 naming the status the row had.
    const now = this.registry.get(sessionId);
    if (now) return now;
    if (!found) throw new SessionNotFoundError(sessionId);
    const { session: row, holder } = found;
    // Adopted only from an instance that is gone: a row no instance ever took live has nothing to take over.
    if (holder.kind === 'free' && holder.instanceId && row.status !== 'destroyed' && row.status !== 'failed')
      return this.lifecycle.adopt(row, holder.instanceId);
    throw new SessionNotLiveError(sessionId, row.status as SessionStatus, row.statusReason ?? undefined);
  }
}

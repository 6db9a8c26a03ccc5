import { Injectable } from '@nestjs/common';
import { OwnedByOtherInstanceError, InstanceLease, holderOf, type Holder } from '../instances';
import { type SessionRow, SessionsReadModel } from './sessions-read-model';

export interface HeldSession {
  session: SessionRow;
  holder: Holder;
}

/**
 * Who holds a session, from its `owner_instance` (the `instanceId` metadata of create / start / resume,
 * folded by the sessions projection) and that instance's lease (instances' `InstanceLease`). A run is
 * held where its thread's session is (delegation's `HeldRuns`).
 */
@Injectable()
export class HeldWork {
  constructor(
    private readonly sessions: SessionsReadModel,
    private readonly lease: InstanceLease,
  ) {}

  /** The instance's sessions that are not ended nor interrupted (what a takeover records interrupted). */
  sessionsHeldBy(instanceId: string): Promise<SessionRow[]> {
    return this.sessions.heldBy(instanceId);
  }

  /** The session's row and where it is held; undefined when the read model has no such session. */
  async sessionHolder(sessionId: string): Promise<HeldSession | undefined> {
    const session = await this.sessions.find(sessionId);
    if (!session) return undefined;
    const lease = session.ownerInstance ? await this.lease.leaseOf(session.ownerInstance) : undefined;
    return { session, holder: holderOf(session.ownerInstance, lease, this.lease.view()) };
  }

  /**
   * The one decision on requests for work another instance holds: a 409 naming that instance and its
   * address when another running instance holds the session (for a run: its session). Otherwise the
   * session's row and holder (undefined: no such session).
   */
  async assertNotHeldElsewhere(sessionId: string, what = `Session ${sessionId}`): Promise<HeldSession | undefined> {
    const held = await this.sessionHolder(sessionId);
    if (held?.holder.kind === 'elsewhere') throw new OwnedByOtherInstanceError(what, held.holder.instanceId, held.holder.address);
    return held;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { and, eq, notInArray } from 'drizzle-orm';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { ReadModelDatabase, type ReadTables } from '../database/read-model-database';
import { OwnedByOtherInstanceError } from './instance.errors';
import { InstanceLease } from './instance-lease';
import { holderOf, type Holder, launchSettled } from './lease-rules';

export type SessionRow = ReadTables['sessions']['$inferSelect'];

export interface HeldSession {
  session: SessionRow;
  holder: Holder;
}

/** A session is over, or already interrupted: nothing of it is held by a CLI. */
const NOT_HELD_STATUSES = ['destroyed', 'failed', 'interrupted'];

/**
 * What an instance holds, read from the read models: the sessions whose `owner_instance` it is, and the
 * runs on those sessions (a run's thread `sub-agent-<runId>` is its session). Its own small queries:
 * instances reads the tables and imports neither sessions nor delegation.
 */
@Injectable()
export class HeldWork {
  private readonly leaseTtlMs: number;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
    private readonly db: ReadModelDatabase,
    private readonly lease: InstanceLease,
  ) {
    this.leaseTtlMs = config.instances.leaseTtlMs;
  }

  /** The instance's sessions that are not ended nor interrupted (what a takeover records interrupted). */
  async sessionsHeldBy(instanceId: string): Promise<SessionRow[]> {
    const { sessions } = this.db.tables;
    return this.db.orm
      .select()
      .from(sessions)
      .where(and(eq(sessions.ownerInstance, instanceId), notInArray(sessions.status, NOT_HELD_STATUSES)));
  }

  /** The runs still running on the instance's sessions. */
  async runningRunsHeldBy(instanceId: string): Promise<string[]> {
    const { runs, sessions } = this.db.tables;
    const rows = await this.db.orm
      .select({ runId: runs.runId })
      .from(runs)
      .innerJoin(sessions, eq(sessions.sessionId, runs.threadId))
      .where(and(eq(runs.status, 'running'), eq(sessions.ownerInstance, instanceId)));
    return rows.map((r) => r.runId);
  }

  /**
   * The running runs no other running instance holds (their session's owner is gone, this instance's
   * previous incarnation, or unrecorded): what start-up recovery interrupts. A run with no session yet
   * is another instance's launch in progress until it is a TTL old (on SQLite there is no other instance).
   */
  async runningRunsNotHeldElsewhere(): Promise<string[]> {
    const { runs, sessions } = this.db.tables;
    const elsewhere = await this.lease.liveOtherIds();
    const rows = await this.db.orm
      .select({ runId: runs.runId, launchedAt: runs.launchedAt, sessionId: sessions.sessionId, owner: sessions.ownerInstance })
      .from(runs)
      .leftJoin(sessions, eq(sessions.sessionId, runs.threadId))
      .where(eq(runs.status, 'running'));
    const view = this.lease.view();
    return rows
      .filter((r) => (r.sessionId ? !r.owner || !elsewhere.has(r.owner) : launchSettled(r.launchedAt, view, this.leaseTtlMs)))
      .map((r) => r.runId);
  }

  /** The session's row and where it is held; undefined when the read model has no such session. */
  async sessionHolder(sessionId: string): Promise<HeldSession | undefined> {
    const { sessions, instanceLeases } = this.db.tables;
    const [row] = await this.db.orm
      .select({ session: sessions, leaseId: instanceLeases.instanceId, address: instanceLeases.address, expiresAt: instanceLeases.expiresAt })
      .from(sessions)
      .leftJoin(instanceLeases, eq(instanceLeases.instanceId, sessions.ownerInstance))
      .where(eq(sessions.sessionId, sessionId))
      .limit(1);
    if (!row) return undefined;
    const { session, leaseId, address, expiresAt } = row;
    const lease = leaseId && address && expiresAt ? { instanceId: leaseId, address, expiresAt } : undefined;
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

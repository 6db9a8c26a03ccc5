import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { and, eq, lt } from 'drizzle-orm';
import { connectionFailureOf } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { ReadModelDatabase } from '../database';
import { InstanceLease } from './instance-lease';
import { claimableBefore, deadLeases, type Lease } from './lease-rules';

/** Records what a dead instance held as interrupted (its sessions; its runs): given the claimed lease. */
export type TakeOver = (dead: Lease) => Promise<void>;

/** What a context gets back when it joins: it calls `recovered()` once its own start-up recovery is done. */
export interface TakeoverParticipation {
  recovered(): void;
}

interface Participant {
  name: string;
  takeOver: TakeOver;
  recovered: boolean;
}

/**
 * Every heartbeat, claims the leases of instances that stopped heart-beating and has the contexts
 * take their work over. A claim is one `DELETE ... WHERE instance_id = ? AND expires_at < ? RETURNING`,
 * so of several instances racing for one dead lease exactly one gets the row and takes over; a lease
 * renewed in between is not claimed. The contexts (sessions, delegation) join with their takeover;
 * this context imports neither. No claim runs before each of them finished its own start-up recovery,
 * so a restart records its own reasons first (and on SQLite, where every other row is dead at once,
 * the previous incarnation's work is the start-up recovery's, as before leases).
 */
@Injectable()
export class LeaseMonitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LeaseMonitor.name);
  private readonly participants: Participant[] = [];
  /** Claimed, but some takeover failed: tried again next beat (the row is gone, nobody else will). */
  private readonly pending = new Map<string, Lease>();
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<Lease[]>;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly db: ReadModelDatabase,
    private readonly lease: InstanceLease,
  ) {}

  /** Called from a context's onModuleInit (all of them run before any bootstrap). */
  join(name: string, takeOver: TakeOver): TakeoverParticipation {
    const participant: Participant = { name, takeOver, recovered: false };
    this.participants.push(participant);
    return {
      recovered: () => {
        participant.recovered = true;
        // The last one in: a dead lease found at start is taken over at once, not a beat later.
        if (this.timer && this.ready) void this.tick();
      },
    };
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.instances.heartbeatMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  private get ready(): boolean {
    return this.participants.every((p) => p.recovered);
  }

  /** One beat: claims the dead leases and takes over what they held. Returns the leases this instance took over. */
  async tick(): Promise<Lease[]> {
    if (this.ticking || !this.ready) return [];
    this.ticking = this.claimAndTakeOver()
      .catch((error: unknown) => {
        // The database away is no takeover problem: the heartbeat says so once; this would say it every beat.
        if (connectionFailureOf(error)) this.logger.debug({ err: error }, 'lease takeover skipped: the database is unavailable');
        else this.logger.error({ err: error }, 'lease takeover failed; trying again next heartbeat');
        return [];
      })
      .finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async claimAndTakeOver(): Promise<Lease[]> {
    for (const lease of await this.claimDead()) this.pending.set(lease.instanceId, lease);
    const done: Lease[] = [];
    for (const lease of [...this.pending.values()]) {
      if (await this.takeOver(lease)) {
        this.pending.delete(lease.instanceId);
        done.push(lease);
      }
    }
    return done;
  }

  /** Claims every lease that is dead now; returns the ones this instance won. */
  async claimDead(): Promise<Lease[]> {
    // Right after a database outage every lease looks expired: the live instances renew theirs first.
    if (!this.lease.mayClaim()) return [];
    const view = this.lease.view();
    const dead = deadLeases(await this.lease.leases(), view);
    const claimed: Lease[] = [];
    for (const candidate of dead) {
      const won = await this.claim(candidate.instanceId, claimableBefore(view));
      if (won) claimed.push(won);
    }
    return claimed;
  }

  /** The one atomic claim: the row comes back to exactly one claimer, and only while still expired. */
  async claim(instanceId: string, expiredBefore: string | undefined): Promise<Lease | undefined> {
    const { instanceLeases } = this.db.tables;
    const [won] = await this.db.orm
      .delete(instanceLeases)
      .where(and(eq(instanceLeases.instanceId, instanceId), expiredBefore === undefined ? undefined : lt(instanceLeases.expiresAt, expiredBefore)))
      .returning();
    if (won)
      this.logger.warn(
        { instanceId, address: won.address, heartbeatAt: won.heartbeatAt, by: this.lease.instanceId },
        'claimed the lease of a dead instance',
      );
    return won;
  }

  /** Each context records its part; true when all did (a failed one is tried again next beat, the others are idempotent). */
  private async takeOver(dead: Lease): Promise<boolean> {
    let complete = true;
    for (const participant of this.participants) {
      try {
        await participant.takeOver(dead);
      } catch (error) {
        complete = false;
        this.logger.error({ err: error, instanceId: dead.instanceId, participant: participant.name }, 'could not take over the work of a dead instance');
      }
    }
    return complete;
  }
}

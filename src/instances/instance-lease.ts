import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import * as os from 'node:os';
import { Observable, Subject } from 'rxjs';
import { v7 as uuidv7 } from 'uuid';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { ReadModelDatabase } from '../database';
import { type HeartbeatStanding, instanceAddress, isLive, type Lease, leaseExpiry, type LeaseView, mayClaimLeases } from './lease-rules';

/** A heartbeat found this instance's row gone: another instance claimed it after a long pause and took its work over. */
export interface LostLease {
  /** The id the work was held under; the instance goes on under a fresh one. */
  instanceId: string;
  reason: string;
}

/**
 * This process's lease on the database: a row in `instance_leases` under a fresh id (uuid v7) per
 * start, renewed every heartbeat; while it is live, the sessions this instance took live (and their
 * runs) are its own and no other instance touches them. Written directly (operational state, not a
 * projection), through `ReadModelDatabase` so it works on both databases.
 */
@Injectable()
export class InstanceLease implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(InstanceLease.name);
  private id = uuidv7();
  readonly address: string;
  readonly hostname = os.hostname();
  readonly pid = process.pid;
  private startedAt = new Date().toISOString();
  private readonly lost = new Subject<LostLease>();
  private timer?: NodeJS.Timeout;
  private beating?: Promise<boolean>;
  private readonly standing: HeartbeatStanding = { failing: false };
  /** The clock heartbeats and liveness are judged by; tests move it. */
  clock: () => Date = () => new Date();

  /** Emitted when a heartbeat finds the row gone: the sessions held under the old id are no longer this instance's. */
  readonly lost$: Observable<LostLease> = this.lost.asObservable();

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly db: ReadModelDatabase,
  ) {
    this.address = instanceAddress(config.instances.publicUrl, config.host, config.port, this.hostname);
  }

  get instanceId(): string {
    return this.id;
  }

  /** Before any other start-up work (a global module's init runs first): what starts up next may already record ownership. */
  async onModuleInit(): Promise<void> {
    await this.join();
    this.logger.log({ instanceId: this.id, address: this.address, dialect: this.db.dialect }, 'instance lease taken');
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.heartbeat().catch((error: unknown) => this.logger.error({ err: error, instanceId: this.id }, 'instance lease heartbeat failed'));
    }, this.config.instances.heartbeatMs);
    this.timer.unref();
  }

  /** Released, not deleted: its expiry set to now, so a running instance claims it and takes the sessions left on it over. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    await this.release().catch((error: unknown) => this.logger.warn({ err: error, instanceId: this.id }, 'could not release the instance lease'));
  }

  /** Inserts this instance's row. */
  async join(): Promise<void> {
    const now = this.clock();
    const { instanceLeases } = this.db.tables;
    await this.db.orm.insert(instanceLeases).values({
      instanceId: this.id,
      address: this.address,
      pid: this.pid,
      hostname: this.hostname,
      startedAt: this.startedAt,
      heartbeatAt: now.toISOString(),
      expiresAt: leaseExpiry(now, this.config.instances.leaseTtlMs),
    });
  }

  /**
   * Moves the expiry on. False when the row was gone: the instance was taken for dead (a pause longer
   * than the TTL) and its work taken over, so `lost$` tells the contexts to let go of it, and the
   * instance joins again under a fresh id for the work it takes from now on.
   */
  async heartbeat(): Promise<boolean> {
    if (this.beating) return this.beating;
    this.beating = this.renew().finally(() => (this.beating = undefined));
    return this.beating;
  }

  private async renew(): Promise<boolean> {
    const now = this.clock();
    const { instanceLeases } = this.db.tables;
    let renewed: Array<{ instanceId: string }>;
    try {
      renewed = await this.db.orm
        .update(instanceLeases)
        .set({ heartbeatAt: now.toISOString(), expiresAt: leaseExpiry(now, this.config.instances.leaseTtlMs) })
        .where(eq(instanceLeases.instanceId, this.id))
        .returning({ instanceId: instanceLeases.instanceId });
    } catch (error) {
      // The database is unreachable: nobody else can claim the row either; try again next beat.
      if (!this.standing.failing) this.logger.warn({ err: error, instanceId: this.id }, 'instance lease heartbeat failed; retrying every beat');
      this.standing.failing = true;
      return true;
    }
    if (this.standing.failing) {
      this.standing.failing = false;
      this.standing.backSince = now;
      this.logger.log({ instanceId: this.id, renewed: renewed.length > 0 }, 'instance lease heartbeat goes through again');
    }
    if (renewed.length > 0) return true;
    const lostId = this.id;
    const reason = `the lease of instance ${lostId} was claimed by another instance (no heartbeat for ${this.config.instances.leaseTtlMs} ms)`;
    this.logger.error({ instanceId: lostId, address: this.address }, `${reason}: its sessions and runs were taken over; letting go of them`);
    this.lost.next({ instanceId: lostId, reason });
    this.id = uuidv7();
    this.startedAt = now.toISOString();
    await this.join().catch((error: unknown) => this.logger.error({ err: error, instanceId: this.id }, 'could not join again after losing the lease'));
    this.logger.warn({ instanceId: this.id, previous: lostId }, 'instance lease taken again under a fresh id');
    return false;
  }

  /** Whether this instance may claim other leases now (see mayClaimLeases: not right after a database outage). */
  mayClaim(): boolean {
    return mayClaimLeases(this.standing, this.clock(), this.config.instances.leaseTtlMs);
  }

  /** Expires the row now (see beforeApplicationShutdown). */
  async release(): Promise<void> {
    const now = this.clock().toISOString();
    const { instanceLeases } = this.db.tables;
    await this.db.orm.update(instanceLeases).set({ heartbeatAt: now, expiresAt: now }).where(eq(instanceLeases.instanceId, this.id));
  }

  /** The rules' view: who asks, on which database, when. */
  view(): LeaseView {
    return { self: this.id, dialect: this.db.dialect, now: this.clock() };
  }

  /** Every row of `instance_leases` (a handful: one per instance). */
  async leases(): Promise<Lease[]> {
    return this.db.orm.select().from(this.db.tables.instanceLeases);
  }

  /** One instance's row, if it still has one (a claimed lease is deleted). */
  async leaseOf(instanceId: string): Promise<Lease | undefined> {
    const { instanceLeases } = this.db.tables;
    const [row] = await this.db.orm.select().from(instanceLeases).where(eq(instanceLeases.instanceId, instanceId)).limit(1);
    return row;
  }

  /** The instances running now, this one included. */
  async liveInstances(): Promise<Lease[]> {
    const view = this.view();
    return (await this.leases()).filter((lease) => isLive(lease, view));
  }

  /** The other instances running now: whatever they hold is not this instance's to recover. */
  async liveOtherIds(): Promise<Set<string>> {
    return new Set((await this.liveInstances()).map((lease) => lease.instanceId).filter((id) => id !== this.id));
  }
}

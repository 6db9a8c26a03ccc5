import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { asSystem, ThrottledWarning } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { InstanceLease, LeaseMonitor, type TakeoverParticipation, type Lease } from '../instances';
import { FiringStarter } from './firing-starter';
import { planFirings } from './firing-plan';
import type { CatchUpPolicy } from './schedule.events';
import type { ScheduleRow } from './schedule-view';
import { SchedulerClock } from './scheduler-clock';
import { SchedulesReadModel } from './schedules-read-model';

/** This instance's own claim still `starting` this long after it fired was cut off (its start failed to record): completed again. */
const OWN_STALE_CLAIM_MS = 30_000;

/** How often the sweep for those claims reads: a claim is found within 40 s, and an idle tick reads two statements, not three. */
const OWN_CLAIM_SWEEP_MS = 10_000;

/**
 * Fires due schedules: every `SWITCHBOARD_SCHEDULER_TICK_MS` (0: never on this instance) it reads the
 * schedules due by the scheduler clock and the firings whose retry is due, and fires them, one tick at a
 * time. Every instance on a database may tick: a firing's first append (version 0) settles which one
 * fires it. Joins the lease monitor: a dead instance's claims still `starting` are completed here.
 */
@Injectable()
export class Scheduler implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Scheduler.name);
  private readonly failures = new ThrottledWarning(this.logger, 'more scheduler ticks failed, not logged one by one', 5);
  private takeover?: TakeoverParticipation;
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private stopped = false;
  /** Scheduler-clock ms of the last sweep of this instance's own cut-off claims. */
  private lastOwnSweepMs = -Infinity;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly clock: SchedulerClock,
    private readonly schedules: SchedulesReadModel,
    private readonly starter: FiringStarter,
    private readonly lease: InstanceLease,
    private readonly monitor: LeaseMonitor,
  ) {}

  onModuleInit(): void {
    this.takeover = this.monitor.join('schedules', (dead) => this.takeOver(dead));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.clock.start();
    // Nothing of this process's own to recover first: an earlier incarnation's claims come through the monitor.
    this.takeover?.recovered();
    const { tickMs } = this.config.scheduler;
    if (tickMs === 0) {
      this.logger.log('the scheduler is off on this instance (SWITCHBOARD_SCHEDULER_TICK_MS=0): it fires no schedules');
      return;
    }
    this.schedule(tickMs);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
  }

  /** One pass: due schedules, due retries, this instance's own cut-off claims. Never rejects. */
  async tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = asSystem(() => this.fireDue())
      .catch((error: unknown) => this.failures.warn({ err: error }, 'scheduler tick failed; trying again next tick'))
      .finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule(this.config.scheduler.tickMs));
    }, delayMs);
    this.timer.unref();
  }

  private async fireDue(): Promise<void> {
    const now = this.clock.now();
    // One schedule's failure (the database away mid-firing) does not hold back the others: each is tried again next tick.
    for (const schedule of await this.schedules.dueBy(now)) {
      if (this.stopped) return;
      await this.fireSchedule(schedule, now).catch((error: unknown) =>
        this.failures.warn({ err: error, scheduleId: schedule.scheduleId }, 'a due schedule could not be fired; trying again next tick'),
      );
    }
    for (const firing of await this.schedules.retryingBy(now)) {
      if (this.stopped) return;
      await this.starter
        .retry(firing, now)
        .catch((error: unknown) => this.failures.warn({ err: error, firingId: firing.firingId }, 'a firing could not be retried; trying again next tick'));
    }
    if (now.getTime() - this.lastOwnSweepMs < OWN_CLAIM_SWEEP_MS) return;
    this.lastOwnSweepMs = now.getTime();
    for (const firing of await this.schedules.startingFiringsOf(this.lease.instanceId)) {
      if (this.stopped) return;
      const cutOff = firing.firedAt === null || Date.parse(firing.firedAt) < now.getTime() - OWN_STALE_CLAIM_MS;
      if (cutOff && !this.starter.starting(firing.firingId)) await this.starter.complete(firing, now);
    }
  }

  private async fireSchedule(schedule: ScheduleRow, now: Date): Promise<void> {
    const plan = await planFirings(
      {
        timing: { cron: schedule.cron, at: schedule.at, timeZone: schedule.timeZone, endsAt: schedule.endsAt },
        catchUp: schedule.catchUp as CatchUpPolicy,
        cursorAt: new Date(schedule.cursorAt),
      },
      now,
    );
    for (const planned of plan) {
      if (this.stopped) return;
      await this.starter.fire(schedule, planned, now);
    }
  }

  /** A dead instance's claims still `starting`: each completed here (started, or failed per the retry rule). */
  private async takeOver(dead: Lease): Promise<void> {
    const claims = await this.schedules.startingFiringsOf(dead.instanceId);
    if (claims.length === 0) return;
    const now = this.clock.now();
    await asSystem(async () => {
      for (const firing of claims) await this.starter.complete(firing, now);
    });
    this.logger.warn({ instanceId: dead.instanceId, firings: claims.length }, 'schedule firings a dead instance had claimed completed here');
  }
}

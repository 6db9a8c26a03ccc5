import { SYSTEM_ACTOR } from '../common';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { handleCommand, EventStore, modelCallStreamId } from '../event-store';
import { InstanceLease, LeaseMonitor, type TakeoverParticipation, type Lease } from '../instances';
import { modelCallDecider } from './model-call.decider';
import { ModelCallsReadModel } from './model-calls-read-model';

/**
 * No call stays "in flight" with nobody to answer it: at start, every call recorded in flight by an
 * instance that is not running (this process's previous life included) is recorded interrupted; when a
 * dead instance's lease is claimed here, its calls are. A call the CLI still wanted is retried by the CLI
 * as a new call (a new request id), so nothing is lost but the answer that never came.
 */
@Injectable()
export class ModelCallRecovery implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(ModelCallRecovery.name);
  private takeover?: TakeoverParticipation;

  constructor(
    private readonly store: EventStore,
    private readonly calls: ModelCallsReadModel,
    private readonly lease: InstanceLease,
    private readonly monitor: LeaseMonitor,
  ) {}

  onModuleInit(): void {
    this.takeover = this.monitor.join('model-calls', (dead) => this.takeOver(dead));
  }

  async onApplicationBootstrap(): Promise<void> {
    const live = [this.lease.instanceId, ...(await this.lease.liveOtherIds())];
    const stale = await this.calls.inFlightNotOf(live);
    if (stale.length > 0) {
      await this.interrupt(stale, 'Switchboard restarted while the model call was in flight; no answer was recorded');
      this.logger.warn({ calls: stale.length }, 'model calls left in flight marked interrupted');
    }
    this.takeover?.recovered();
  }

  private async takeOver(dead: Lease): Promise<void> {
    const stale = await this.calls.inFlightOf([dead.instanceId]);
    if (stale.length === 0) return;
    await this.interrupt(stale, `instance ${dead.instanceId} stopped while the model call was in flight; no answer was recorded`);
    this.logger.warn({ instanceId: dead.instanceId, calls: stale.length }, 'model calls of a dead instance marked interrupted');
  }

  private async interrupt(callIds: readonly string[], reason: string): Promise<void> {
    await Promise.all(
      callIds.map((callId) =>
        handleCommand(
          this.store,
          modelCallDecider,
          modelCallStreamId(callId),
          { type: 'interrupt', callId, reason },
          { metadata: { actor: 'switchboard', by: SYSTEM_ACTOR } },
        ),
      ),
    );
  }
}

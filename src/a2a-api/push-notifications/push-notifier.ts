import { type StreamResponse, type Task } from '@a2a-js/sdk';
import { V1PushNotificationSerializer } from '@a2a-js/sdk/server';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Subscription } from 'rxjs';
import { readRunEvent, RunEvents } from '../../delegation';
import { EventStore } from '../../event-store';
import { type Lease, InstanceLease, LeaseMonitor, type TakeoverParticipation } from '../../instances';
import { guardedFetch, OutboundUrlGuard } from '../../outbound';
import { ListRuns } from '../../run-lineage';
import { A2aTaskStore } from '../a2a-task-store';
import type { PushConfig } from './push-config.decider';
import { type PushCredentials, PushConfigs } from './push-configs';

/** The header a config's `token` is sent in (A2A's, as the SDK's own sender names it). */
export const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';
const SEND_TIMEOUT_MS = 10_000;
/** Tries of one notification: a network failure or a 5xx is tried again after 0.5 s, then 1 s. */
const TRIES = 3;
/** The running A2A tasks recovery looks at, at most (a page of ListRuns). */
const RECOVERY_PAGE = 500;

/**
 * issue 43: sends an A2A task's push notifications. One follower per task on the instance its configs name
 * (`instanceId`): at each change of the task's state (working, input required, its end) every config of the
 * task is sent the task (a `StreamResponse` with the task, the SDK's v1 serialization), through the outbound
 * guard, with its credentials opened only here. The follower stops when the task ends, its configs are all
 * deleted, another instance took them, or the task is interrupted (once resumed, it is followed again). At start, and when a dead instance's lease is claimed here, the
 * running tasks whose configs no live instance sends are taken over. A notification is sent at most once per
 * change by the instance following the task; one lost to a crash is not sent again (GetTask reads the state).
 */
@Injectable()
export class PushNotifier implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PushNotifier.name);
  private readonly following = new Map<string, AbortController>();
  private readonly stopping = new AbortController();
  private readonly fetch: typeof fetch;
  private readonly serializer = new V1PushNotificationSerializer();
  private takeover?: TakeoverParticipation;
  private resumes?: Subscription;

  constructor(
    private readonly configs: PushConfigs,
    private readonly tasks: A2aTaskStore,
    private readonly queryBus: QueryBus,
    private readonly lease: InstanceLease,
    private readonly monitor: LeaseMonitor,
    private readonly store: EventStore,
    outbound: OutboundUrlGuard,
  ) {
    this.fetch = guardedFetch(outbound, { timeoutMs: SEND_TIMEOUT_MS, maxResponseBytes: 64 * 1024 });
  }

  onModuleInit(): void {
    if (!this.configs.enabled) return;
    this.takeover = this.monitor.join('a2a-push', (dead) => this.takeOver(dead));
    this.resumes = this.store.committed$.subscribe((event) => {
      const run = readRunEvent(event);
      if (run?.type !== RunEvents.resumed || typeof run.data.runId !== 'string') return;
      this.onResumed(run.data.runId).catch((error: unknown) =>
        this.logger.warn({ taskId: run.data.runId, err: error }, 'could not follow a resumed A2A task'),
      );
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.configs.enabled) return;
    const elsewhere = await this.lease.liveOtherIds();
    await this.resume((instanceId) => !elsewhere.has(instanceId));
    this.takeover?.recovered();
  }

  onModuleDestroy(): void {
    this.resumes?.unsubscribe();
    this.stopping.abort();
  }

  /** Follows the task (if not already) and notifies its configs at each change, starting with its state now. */
  follow(taskId: string, agentId: string, origin: string): void {
    if (this.following.has(taskId) || this.stopping.signal.aborted) return;
    const stop = new AbortController();
    this.following.set(taskId, stop);
    void this.notifyAsItGoes(taskId, agentId, origin, AbortSignal.any([stop.signal, this.stopping.signal]))
      .catch((error: unknown) => this.logger.error({ taskId, err: error }, 'stopped following an A2A task for its push notifications'))
      .finally(() => this.following.delete(taskId));
  }

  private async takeOver(dead: Lease): Promise<void> {
    await this.resume((instanceId) => instanceId === dead.instanceId);
  }

  /** The running A2A tasks with configs whose sender `orphaned` says is gone: this instance sends them now. */
  private async resume(orphaned: (instanceId: string) => boolean): Promise<void> {
    // An interrupted task is claimed too: it is followed again once resumed (onResumed), from here.
    const page = await this.queryBus.execute(new ListRuns({ startedOverA2a: true, statuses: ['running', 'interrupted'] }, RECOVERY_PAGE));
    for (const run of page.runs) {
      const push = await this.configs.load(run.runId);
      if (!push || push.configs.length === 0 || this.following.has(run.runId)) continue;
      if (push.instanceId !== this.lease.instanceId && !orphaned(push.instanceId)) continue;
      await this.configs.move(run.runId);
      this.logger.log({ taskId: run.runId, from: push.instanceId }, 'sending the push notifications of an A2A task from here');
      if (run.status === 'running') this.follow(run.runId, push.agentId, push.origin);
    }
  }

  /** A task stops being followed while it is interrupted; resumed, its sender follows it again. */
  private async onResumed(taskId: string): Promise<void> {
    const push = await this.configs.load(taskId);
    if (push && push.configs.length > 0 && push.instanceId === this.lease.instanceId) this.follow(taskId, push.agentId, push.origin);
  }

  private async notifyAsItGoes(taskId: string, agentId: string, origin: string, signal: AbortSignal): Promise<void> {
    for await (const snapshot of this.tasks.follow(taskId, agentId, origin, signal, 'ended')) {
      // Steps are a stream's detail; a notification is a change of the task's state.
      if (snapshot.step !== undefined) continue;
      const push = await this.configs.load(taskId);
      if (!push || push.configs.length === 0 || push.instanceId !== this.lease.instanceId) return;
      await Promise.all(push.configs.map((config) => this.notify(taskId, config, snapshot.task)));
    }
  }

  private async notify(taskId: string, config: PushConfig, task: Task): Promise<void> {
    const credentials = this.configs.credentialsOf(config);
    if (credentials === 'unreadable') {
      this.logger.warn(
        { taskId, configId: config.configId },
        'push notification not sent: its credentials were sealed with another SWITCHBOARD_SECRETS_KEY',
      );
      return;
    }
    const notification: StreamResponse = { payload: { $case: 'task', value: task } };
    const { body, contentType } = this.serializer.serialize(notification, task);
    const headers = { 'content-type': contentType, ...authHeaders(credentials) };
    for (let attempt = 1; attempt <= TRIES; attempt++) {
      try {
        const answer = await this.fetch(config.url, { method: 'POST', headers, body, signal: this.stopping.signal });
        if (answer.ok) {
          this.logger.log({ taskId, configId: config.configId, state: task.status?.state }, 'push notification sent');
          return;
        }
        if (answer.status < 500) {
          this.logger.warn({ taskId, configId: config.configId, status: answer.status }, 'push notification refused by its receiver');
          return;
        }
        this.logger.warn({ taskId, configId: config.configId, status: answer.status, attempt }, 'push notification failed');
      } catch (error) {
        if (this.stopping.signal.aborted) return;
        this.logger.warn({ taskId, configId: config.configId, attempt, err: error }, 'push notification could not be sent');
      }
      if (attempt < TRIES) await sleep(500 * 2 ** (attempt - 1));
    }
  }
}

function authHeaders(credentials: PushCredentials | undefined): Record<string, string> {
  if (credentials?.authentication) return { authorization: `${credentials.authentication.scheme} ${credentials.authentication.credentials}` };
  if (credentials?.token) return { [NOTIFICATION_TOKEN_HEADER]: credentials.token };
  return {};
}

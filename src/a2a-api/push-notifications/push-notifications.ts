import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { Injectable } from '@nestjs/common';
import { PushConfigNotFoundError } from './push-config.decider';
import { PushConfigs, type PreparedPushConfig } from './push-configs';
import { PushNotifier } from './push-notifier';

/**
 * issue 43: what the A2A operations ask of push notifications: a task's configs set, read, listed and
 * deleted (PushConfigs), and the task followed for them from the instance that set the last one (PushNotifier).
 */
@Injectable()
export class PushNotifications {
  constructor(
    private readonly configs: PushConfigs,
    private readonly notifier: PushNotifier,
  ) {}

  /** Off without SWITCHBOARD_SECRETS_KEY: a client's credential would have nowhere safe to go. */
  get enabled(): boolean {
    return this.configs.enabled;
  }

  /** Checks a config before anything is recorded (SendMessage checks it before it starts the task). */
  prepare(asked: TaskPushNotificationConfig): Promise<PreparedPushConfig> {
    return this.configs.prepare(asked);
  }

  async set(taskId: string, agentId: string, origin: string, config: PreparedPushConfig): Promise<TaskPushNotificationConfig> {
    const set = await this.configs.record(taskId, agentId, origin, config);
    this.notifier.follow(taskId, agentId, origin);
    return set;
  }

  async get(taskId: string, configId: string): Promise<TaskPushNotificationConfig> {
    const config = (await this.configs.load(taskId))?.configs.find((c) => c.configId === configId);
    if (!config) throw new PushConfigNotFoundError(taskId, configId);
    return this.configs.view(taskId, config);
  }

  async list(taskId: string): Promise<TaskPushNotificationConfig[]> {
    return ((await this.configs.load(taskId))?.configs ?? []).map((config) => this.configs.view(taskId, config));
  }

  delete(taskId: string, configId: string): Promise<void> {
    return this.configs.delete(taskId, configId);
  }
}

import type { AuthenticationInfo, TaskPushNotificationConfig } from '@a2a-js/sdk';
import { Inject, Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { InvalidInputError } from '../../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../config';
import { a2aPushStreamId, EventStore, foldEvents, handleCommand } from '../../event-store';
import { InstanceLease } from '../../instances';
import { OutboundUrlGuard } from '../../outbound';
import { type PushCommand, type PushConfig, pushConfigDecider, type PushState } from './push-config.decider';
import { isA2aPushEvent } from './push-config.events';
import { SealedSecrets } from './sealed-secrets';

const CONFIG_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_TOKEN = 4_000;

/** A config checked and sealed, before it is recorded for a task. */
export interface PreparedPushConfig extends PushConfig {
  credentials: PushCredentials | undefined;
}

/** What a notification is sent with: the client's token (its own header) or an Authorization scheme and credentials. */
export interface PushCredentials {
  token?: string;
  authentication?: { scheme: string; credentials: string };
}

/**
 * issue 43: A2A tasks' push-notification configs, kept in the log (`a2a_push-<taskId>`) with the client's
 * credentials sealed (SealedSecrets, SWITCHBOARD_SECRETS_KEY): any instance reads them, none shows them. The
 * URL is checked by the outbound guard when it is set (and again by every notification sent to it).
 * Without a secrets key nothing is offered (`enabled` false): a credential would have nowhere safe to go.
 */
@Injectable()
export class PushConfigs {
  private readonly secrets?: SealedSecrets;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
    private readonly store: EventStore,
    private readonly lease: InstanceLease,
    private readonly outbound: OutboundUrlGuard,
  ) {
    if (config.a2a.secretsKey) this.secrets = new SealedSecrets(config.a2a.secretsKey);
  }

  get enabled(): boolean {
    return this.secrets !== undefined;
  }

  async load(taskId: string): Promise<PushState | undefined> {
    return foldEvents(pushConfigDecider, (await this.store.readStream(a2aPushStreamId(taskId))).filter(isA2aPushEvent));
  }

  /** A config as asked, checked (its id, URL and credentials) and its credentials sealed: nothing recorded yet. */
  async prepare(asked: TaskPushNotificationConfig): Promise<PreparedPushConfig> {
    const secrets = this.secrets;
    if (!secrets) throw new Error('push notifications are off: SWITCHBOARD_SECRETS_KEY is not set');
    const configId = asked.id || uuidv7();
    if (!CONFIG_ID.test(configId)) throw new InvalidInputError('a push-notification config id must be 1 to 128 letters, digits or . _ : -');
    await this.checkUrl(asked.url);
    const credentials = credentialsAsked(asked.token, asked.authentication);
    return { configId, url: asked.url, sealedCredentials: credentials ? secrets.seal(JSON.stringify(credentials)) : null, credentials };
  }

  /** Sets (or replaces, by id) a config of the task; this instance sends its notifications from now on. */
  async record(taskId: string, agentId: string, origin: string, prepared: PreparedPushConfig): Promise<TaskPushNotificationConfig> {
    const { configId, url, sealedCredentials, credentials } = prepared;
    await this.decide(taskId, { type: 'set', data: { taskId, configId, agentId, url, sealedCredentials, origin, instanceId: this.lease.instanceId } });
    return viewOf(taskId, { configId, url, sealedCredentials }, credentials);
  }

  async delete(taskId: string, configId: string): Promise<void> {
    await this.decide(taskId, { type: 'delete', taskId, configId });
  }

  /** This instance sends the task's notifications now (the one that did is gone). */
  async move(taskId: string): Promise<void> {
    await this.decide(taskId, { type: 'move', taskId, instanceId: this.lease.instanceId });
  }

  /** A config's credentials; undefined when it has none, `unreadable` when another key sealed them. */
  credentialsOf(config: PushConfig): PushCredentials | undefined | 'unreadable' {
    if (config.sealedCredentials === null) return undefined;
    const opened = this.secrets?.open(config.sealedCredentials);
    return opened === undefined ? 'unreadable' : (JSON.parse(opened) as PushCredentials);
  }

  /** A config as A2A shows it: its secrets never leave (the token blank, the authentication's scheme alone). */
  view(taskId: string, config: PushConfig): TaskPushNotificationConfig {
    const credentials = this.credentialsOf(config);
    return viewOf(taskId, config, credentials === 'unreadable' ? undefined : credentials);
  }

  private async decide(taskId: string, command: PushCommand): Promise<void> {
    await handleCommand(this.store, pushConfigDecider, a2aPushStreamId(taskId), command);
  }

  private async checkUrl(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidInputError('a push-notification url must be an absolute http(s) URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidInputError('a push-notification url must be http(s)');
    const verdict = await this.outbound.check(url);
    if (!verdict.allowed) throw new InvalidInputError(`the push-notification url is refused by the outbound guard: ${verdict.reason}`);
  }
}

function credentialsAsked(token: string | undefined, authentication: AuthenticationInfo | undefined): PushCredentials | undefined {
  if ((token?.length ?? 0) > MAX_TOKEN || (authentication?.credentials.length ?? 0) > MAX_TOKEN) {
    throw new InvalidInputError(`a push-notification token or credentials must be at most ${MAX_TOKEN} characters`);
  }
  if (authentication && (!/^[A-Za-z][A-Za-z0-9._-]{0,63}$/.test(authentication.scheme) || !authentication.credentials)) {
    throw new InvalidInputError('authentication needs a scheme (e.g. Bearer) and its credentials');
  }
  const credentials: PushCredentials = {
    ...(token ? { token } : {}),
    ...(authentication ? { authentication: { scheme: authentication.scheme, credentials: authentication.credentials } } : {}),
  };
  return credentials.token || credentials.authentication ? credentials : undefined;
}

function viewOf(taskId: string, config: PushConfig, credentials: PushCredentials | undefined): TaskPushNotificationConfig {
  return {
    tenant: '',
    id: config.configId,
    taskId,
    url: config.url,
    token: '',
    authentication: credentials?.authentication ? { scheme: credentials.authentication.scheme, credentials: '' } : undefined,
  };
}

import { type DomainEvent, eventGuard } from '../../event-store';

/** issue 43: the events of an A2A task's push-notification stream (`a2a_push-<taskId>`). */
export const A2aPushEvents = {
  /** A client asked to be called back at `url` as the task changes (a config with its id set or replaced). */
  configSet: 'a2a.push_config_set',
  configDeleted: 'a2a.push_config_deleted',
  /** Another instance sends the task's notifications now (the one that did is gone). */
  notifierMoved: 'a2a.push_notifier_moved',
} as const;

export interface PushConfigSetData {
  taskId: string;
  configId: string;
  /** The agent the task is of (its notifications are built as its tasks are). */
  agentId: string;
  url: string;
  /** `{token?, authentication?}` sealed (SealedSecrets): the log never holds a client's credential in the clear. */
  sealedCredentials: string | null;
  /** The service's origin as the client reached it: the task's links point there. */
  origin: string;
  /** The instance that sends the task's notifications. */
  instanceId: string;
}

export interface PushConfigDeletedData {
  taskId: string;
  configId: string;
}

export interface PushNotifierMovedData {
  taskId: string;
  instanceId: string;
}

export type A2aPushEvent =
  | DomainEvent<typeof A2aPushEvents.configSet, PushConfigSetData>
  | DomainEvent<typeof A2aPushEvents.configDeleted, PushConfigDeletedData>
  | DomainEvent<typeof A2aPushEvents.notifierMoved, PushNotifierMovedData>;

export const isA2aPushEvent = eventGuard<A2aPushEvent>(Object.values(A2aPushEvents));

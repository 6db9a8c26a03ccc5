import { HttpStatus } from '@nestjs/common';
import { DomainError } from '../../common';
import type { Decider } from '../../event-store';
import { type A2aPushEvent, A2aPushEvents, isA2aPushEvent, type PushConfigSetData } from './push-config.events';

/** How many push configs one task may have. */
export const MAX_PUSH_CONFIGS = 10;

export interface PushConfig {
  configId: string;
  url: string;
  sealedCredentials: string | null;
}

/** A task's push configs as its stream folds: undefined before the first. */
export interface PushState {
  taskId: string;
  agentId: string;
  origin: string;
  instanceId: string;
  configs: PushConfig[];
}

export type PushCommand =
  { type: 'set'; data: PushConfigSetData } | { type: 'delete'; taskId: string; configId: string } | { type: 'move'; taskId: string; instanceId: string };

export class PushConfigNotFoundError extends DomainError {
  static override readonly httpStatus = HttpStatus.NOT_FOUND;
  readonly code = 'push_config_not_found';
  constructor(taskId: string, configId: string) {
    super(`Task ${taskId} has no push-notification config ${configId}; list its configs to see their ids`, { taskId, configId });
  }
}

export class TooManyPushConfigsError extends DomainError {
  readonly code = 'too_many_push_configs';
  constructor(taskId: string) {
    super(`Task ${taskId} already has ${MAX_PUSH_CONFIGS} push-notification configs; delete one first`, { taskId });
  }
}

function decide(command: PushCommand, state: PushState | undefined): A2aPushEvent[] {
  switch (command.type) {
    case 'set': {
      const replaces = state?.configs.some((config) => config.configId === command.data.configId);
      if (!replaces && (state?.configs.length ?? 0) >= MAX_PUSH_CONFIGS) throw new TooManyPushConfigsError(command.data.taskId);
      return [{ type: A2aPushEvents.configSet, data: command.data }];
    }
    case 'delete':
      if (!state?.configs.some((config) => config.configId === command.configId)) throw new PushConfigNotFoundError(command.taskId, command.configId);
      return [{ type: A2aPushEvents.configDeleted, data: { taskId: command.taskId, configId: command.configId } }];
    case 'move':
      if (!state || state.instanceId === command.instanceId) return [];
      return [{ type: A2aPushEvents.notifierMoved, data: { taskId: command.taskId, instanceId: command.instanceId } }];
  }
}

function evolve(state: PushState | undefined, event: A2aPushEvent): PushState | undefined {
  switch (event.type) {
    case A2aPushEvents.configSet: {
      const { taskId, agentId, origin, instanceId, configId, url, sealedCredentials } = event.data;
      const others = state?.configs.filter((config) => config.configId !== configId) ?? [];
      return { taskId, agentId, origin, instanceId, configs: [...others, { configId, url, sealedCredentials }] };
    }
    case A2aPushEvents.configDeleted:
      return state && { ...state, configs: state.configs.filter((config) => config.configId !== event.data.configId) };
    case A2aPushEvents.notifierMoved:
      return state && { ...state, instanceId: event.data.instanceId };
  }
}

/** issue 43: an A2A task's push-notification configs (`a2a_push-<taskId>`). */
export const pushConfigDecider: Decider<PushState | undefined, PushCommand, A2aPushEvent> = {
  isEvent: isA2aPushEvent,
  initialState: () => undefined,
  evolve,
  decide,
};

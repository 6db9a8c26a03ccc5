import type { Decider } from '../../event-store';
import { ApiKeyNotFoundError, ApiKeyStateError, FirstKeyMustBeAdminError } from './api-key.errors';
import { type ApiKeyCreatedData, type ApiKeyEvent, ApiKeyEvents, type ApiKeyRevokedData, isApiKeyEvent } from './api-key.events';

export interface ApiKeyState {
  created?: ApiKeyCreatedData;
  revoked?: ApiKeyRevokedData;
}

export type ApiKeyCommand =
  | {
      type: 'create';
      key: Omit<ApiKeyCreatedData, 'createdAt'>;
      now: number;
      /** Asked for on the open local API (by its local admin): this key closes it, so it must be able to manage keys (issue 39). */
      closesOpenApi?: boolean;
    }
  | { type: 'revoke'; keyId: string; revokedBy: string; now: number };

/** One named key: created once, revoked at most once. */
export const apiKeyDecider: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  isEvent: isApiKeyEvent,
  initialState: () => ({}),

  evolve(state, event) {
    switch (event.type) {
      case ApiKeyEvents.created:
        return { created: event.data };
      case ApiKeyEvents.revoked:
        return { ...state, revoked: event.data };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'create':
        if (state.created) throw new ApiKeyStateError(`API key ${command.key.keyId} exists already`, { keyId: command.key.keyId });
        if (command.closesOpenApi && command.key.role !== 'admin') throw new FirstKeyMustBeAdminError(command.key.role);
        return [{ type: ApiKeyEvents.created, data: { ...command.key, createdAt: new Date(command.now).toISOString() } }];
      case 'revoke': {
        if (!state.created) throw new ApiKeyNotFoundError(command.keyId);
        if (state.revoked) {
          throw new ApiKeyStateError(`API key ${state.created.name} was revoked already (${state.revoked.revokedAt}, by ${state.revoked.revokedBy})`, {
            keyId: command.keyId,
            revokedAt: state.revoked.revokedAt,
          });
        }
        return [
          { type: ApiKeyEvents.revoked, data: { keyId: command.keyId, revokedBy: command.revokedBy, revokedAt: new Date(command.now).toISOString() } },
        ];
      }
    }
  },
};

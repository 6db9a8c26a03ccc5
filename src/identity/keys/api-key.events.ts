import { type DomainEvent, eventGuard } from '../../event-store';
import type { Role } from '../principal';

/** issue 27: the events of a named API key's stream, `api_key-<keyId>`. The secret itself is never recorded. */
export const ApiKeyEvents = {
  created: 'api_key.created',
  revoked: 'api_key.revoked',
} as const;

export interface ApiKeyCreatedData {
  keyId: string;
  name: string;
  role: Role;
  /** The key's first characters (`sbk_` and 8 more): what lists show. */
  prefix: string;
  /** SHA-256 (hex) of the whole key: what a request's bearer is looked up by. */
  secretSha256: string;
  expiresAt?: string;
  /** The principal id of who created it. */
  createdBy: string;
  createdAt: string;
}

export interface ApiKeyRevokedData {
  keyId: string;
  revokedBy: string;
  revokedAt: string;
}

export type ApiKeyCreated = DomainEvent<typeof ApiKeyEvents.created, ApiKeyCreatedData>;
export type ApiKeyRevoked = DomainEvent<typeof ApiKeyEvents.revoked, ApiKeyRevokedData>;
export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked;

export const isApiKeyEvent = eventGuard<ApiKeyEvent>(Object.values(ApiKeyEvents));

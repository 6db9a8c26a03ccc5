import { DomainError } from '../../common/domain-error';

export class ApiKeyNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(keyId: string) {
    super(`No API key ${keyId}: GET /api/keys lists them`, { keyId });
  }
}

/** A key revoked already cannot be revoked again (409), so the first revocation's who and when stay. */
export class ApiKeyStateError extends DomainError {
  readonly code = 'invalid_state';

  constructor(message: string, details: Record<string, unknown>) {
    super(message, details);
  }
}

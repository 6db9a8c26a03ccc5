import { DomainError } from '../../common';

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

/**
 * issue 39: the first key, asked for on the open local API, closes it; one of another role would leave
 * nobody able to manage keys (the console's maker locked out until a restart with a token). 422.
 */
export class FirstKeyMustBeAdminError extends DomainError {
  readonly code = 'first_key_must_be_admin';

  constructor(role: string) {
    super(
      `The first API key must have the admin role (asked: ${role}): creating it closes the open local API, and a ${role} key could not manage keys afterwards. Create an admin key first; it can then create keys of any role`,
      { role, needs: 'admin' },
    );
  }
}

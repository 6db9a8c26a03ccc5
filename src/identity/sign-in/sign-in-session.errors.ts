import { DomainError } from '../../common';
import type { SignInSessionView } from './sign-in-sessions';

export class SignInSessionNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(sessionId: string) {
    super(`No sign-in session ${sessionId}: GET /api/sign-in-sessions lists them`, { sessionId });
  }
}

/** A session that has ended (signed out, revoked or expired) cannot be revoked again (409): its end stays as it was. */
export class SignInSessionEndedError extends DomainError {
  readonly code = 'invalid_state';

  constructor(session: SignInSessionView) {
    const how = session.state === 'expired' ? `expired at ${session.expiresAt}` : `was ended at ${session.revokedAt} (signed out or revoked)`;
    super(`Sign-in session ${session.id} of ${session.name} ${how}: nothing to revoke`, { sessionId: session.id, state: session.state });
  }
}

import { Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Principal } from '../../../principal';
import { CredentialStreams } from '../../../credential-streams';
import { SESSION_ENDED, SignInSessions, type SignInSessionView } from '../../sign-in-sessions';

export class RevokeSignInSession extends Command<SignInSessionView> {
  constructor(
    readonly sessionId: string,
    readonly by: Principal,
  ) {
    super();
  }
}

/**
 * Sessions are operational state, not an event stream: the row is marked revoked in one statement,
 * which every instance reads per request; the log says who revoked whose session. Its open streams
 * close here at once, on the other instances at their next check of open credentials.
 */
@CommandHandler(RevokeSignInSession)
export class RevokeSignInSessionHandler implements ICommandHandler<RevokeSignInSession, SignInSessionView> {
  private readonly logger = new Logger(RevokeSignInSessionHandler.name);

  constructor(
    private readonly sessions: SignInSessions,
    private readonly streams: CredentialStreams,
  ) {}

  async execute({ sessionId, by }: RevokeSignInSession): Promise<SignInSessionView> {
    const revoked = await this.sessions.revoke(sessionId);
    this.streams.end({ kind: 'sign_in_session', id: revoked.id }, SESSION_ENDED.revoked);
    this.logger.log({ sessionId, subject: revoked.subject, by: { kind: by.kind, id: by.id, name: by.name } }, 'sign-in session revoked');
    return revoked;
  }
}

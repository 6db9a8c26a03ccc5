import { Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Principal } from '../../../principal';
import { SignInSessions, type SignInSessionView } from '../../sign-in-sessions';

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
 * which every instance reads per request; the log says who revoked whose session.
 */
@CommandHandler(RevokeSignInSession)
export class RevokeSignInSessionHandler implements ICommandHandler<RevokeSignInSession, SignInSessionView> {
  private readonly logger = new Logger(RevokeSignInSessionHandler.name);

  constructor(private readonly sessions: SignInSessions) {}

  async execute({ sessionId, by }: RevokeSignInSession): Promise<SignInSessionView> {
    const revoked = await this.sessions.revoke(sessionId);
    this.logger.log({ sessionId, subject: revoked.subject, by: { kind: by.kind, id: by.id, name: by.name } }, 'sign-in session revoked');
    return revoked;
  }
}

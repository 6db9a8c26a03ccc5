import { Module } from '@nestjs/common';
import { RevokeSignInSessionHandler } from './commands/revoke-sign-in-session/revoke-sign-in-session.command';
import { CookieSessionAuthenticator } from './cookie-session.authenticator';
import { OidcSignIn } from './oidc-sign-in';
import { ListSignInSessionsHandler } from './queries/list-sign-in-sessions/list-sign-in-sessions.query';
import { SignInController } from './sign-in.controller';
import { SignInSessions } from './sign-in-sessions';
import { SignInSessionsController } from './sign-in-sessions.controller';

/** People signing in through OpenID Connect (issue 27): the flow, their sessions (an admin lists and revokes them), the cookie authenticator. */
@Module({
  controllers: [SignInController, SignInSessionsController],
  providers: [OidcSignIn, SignInSessions, CookieSessionAuthenticator, ListSignInSessionsHandler, RevokeSignInSessionHandler],
})
export class SignInModule {}

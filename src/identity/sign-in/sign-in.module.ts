import { Module } from '@nestjs/common';
import { CookieSessionAuthenticator } from './cookie-session.authenticator';
import { OidcSignIn } from './oidc-sign-in';
import { SignInController } from './sign-in.controller';
import { SignInSessions } from './sign-in-sessions';

/** People signing in through OpenID Connect (issue 27): the flow, their sessions, the cookie authenticator. */
@Module({
  controllers: [SignInController],
  providers: [OidcSignIn, SignInSessions, CookieSessionAuthenticator],
})
export class SignInModule {}

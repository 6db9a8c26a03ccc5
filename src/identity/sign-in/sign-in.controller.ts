import { BadRequestException, Controller, ForbiddenException, Get, HttpCode, Logger, NotFoundException, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common';
import { CookieSessionAuthenticator } from './cookie-session.authenticator';
import { OidcSignIn, type PendingSignIn } from './oidc-sign-in';
import { cookieHeader, cookieValue, PENDING_SIGN_IN_COOKIE, SESSION_COOKIE } from './session-cookie';
import { CredentialStreams } from '../credential-streams';
import { SESSION_ENDED, sessionIdOfCookie, SignInSessions } from './sign-in-sessions';

const PENDING_SIGN_IN_SECONDS = 600;

const notConfigured = () =>
  new NotFoundException({ code: 'sign_in_not_configured', message: 'Sign-in is not configured: set SWITCHBOARD_OIDC_ISSUER (see docs/security.md)' });

/**
 * Sign-in for people (issue 27): `/auth/login` sends the browser to the OpenID Connect provider,
 * `/auth/callback` turns its answer into a server-side session held by an HttpOnly cookie, and
 * `POST /auth/logout` ends that session. Public: they are how a person gets a credential. Browser
 * navigations (redirects and a cookie), not API calls: kept out of the OpenAPI document and described in
 * docs/security.md.
 */
@ApiExcludeController()
@Controller('auth')
@Public()
export class SignInController {
  private readonly logger = new Logger(SignInController.name);

  constructor(
    private readonly signIn: OidcSignIn,
    private readonly sessions: SignInSessions,
    private readonly streams: CredentialStreams,
    private readonly cookies: CookieSessionAuthenticator,
  ) {}

  @Get('login')
  @ApiOperation({ summary: 'Start signing in (a browser page): redirects to the OpenID Connect provider' })
  async login(@Res() response: Response): Promise<void> {
    const settings = this.signIn.settings;
    if (!settings) throw notConfigured();
    const { url, pending } = await this.signIn.authorizationUrl(settings);
    response.setHeader(
      'Set-Cookie',
      cookieHeader(PENDING_SIGN_IN_COOKIE, Buffer.from(JSON.stringify(pending)).toString('base64url'), {
        path: '/auth',
        maxAgeSeconds: PENDING_SIGN_IN_SECONDS,
        secure: settings.publicOrigin.startsWith('https:'),
      }),
    );
    response.redirect(302, url.href);
  }

  @Get('callback')
  @ApiOperation({ summary: "The provider's redirect back: starts the session (an HttpOnly cookie) and opens the console" })
  async callback(@Req() request: Request, @Res() response: Response, @Query('error') error?: string): Promise<void> {
    const settings = this.signIn.settings;
    if (!settings) throw notConfigured();
    if (error) throw new BadRequestException({ code: 'sign_in_refused', message: `The identity provider refused the sign-in (${error.slice(0, 200)})` });
    const pending = pendingOf(cookieValue(request.headers.cookie, PENDING_SIGN_IN_COOKIE));
    if (!pending) {
      throw new BadRequestException({
        code: 'sign_in_expired',
        message: 'This sign-in was not started here or took longer than 10 minutes: start again at /auth/login',
      });
    }
    const query = request.originalUrl.includes('?') ? request.originalUrl.slice(request.originalUrl.indexOf('?')) : '';
    let person;
    try {
      person = await this.signIn.finish(settings, query, pending);
    } catch (failure) {
      this.logger.warn({ error: String(failure) }, 'sign-in callback refused');
      throw new BadRequestException({ code: 'sign_in_failed', message: 'The sign-in could not be completed: start again at /auth/login' });
    }
    const id = await this.sessions.start(person);
    this.logger.log({ subject: person.subject, role: person.role }, 'signed in');
    const secure = settings.publicOrigin.startsWith('https:');
    response.setHeader('Set-Cookie', [
      cookieHeader(PENDING_SIGN_IN_COOKIE, '', { path: '/auth', maxAgeSeconds: 0, secure }),
      cookieHeader(SESSION_COOKIE, id, { path: '/', maxAgeSeconds: Math.floor(this.sessionTtlMs() / 1000), secure }),
    ]);
    response.redirect(302, '/');
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out: ends the session server-side and clears the cookie' })
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    const settings = this.signIn.settings;
    if (!settings) throw notConfigured();
    const id = cookieValue(request.headers.cookie, SESSION_COOKIE);
    if (id) {
      // Same cross-site rule as any cookie-authenticated call: another site cannot sign a person out.
      await this.cookies.principalOf(request).catch((refusal: unknown) => {
        if (refusal instanceof ForbiddenException) throw refusal;
      });
      await this.sessions.end(id);
      // Its open streams end with it: here at once, on the other instances at their next check.
      this.streams.end({ kind: 'sign_in_session', id: sessionIdOfCookie(id) }, SESSION_ENDED.revoked);
    }
    response.setHeader(
      'Set-Cookie',
      cookieHeader(SESSION_COOKIE, '', { path: '/', maxAgeSeconds: 0, secure: settings.publicOrigin.startsWith('https:') }),
    );
  }

  private sessionTtlMs(): number {
    return this.sessions.ttlMs;
  }
}

function pendingOf(cookie: string | undefined): PendingSignIn | undefined {
  if (!cookie) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { state, nonce, codeVerifier } = parsed as Record<string, unknown>;
    return typeof state === 'string' && typeof nonce === 'string' && typeof codeVerifier === 'string' ? { state, nonce, codeVerifier } : undefined;
  } catch {
    return undefined;
  }
}

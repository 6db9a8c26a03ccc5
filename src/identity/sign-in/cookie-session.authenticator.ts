import { ForbiddenException, Inject, UnauthorizedException } from '@nestjs/common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../config';
import { ProvidesAuthenticator, type Authenticator, type CredentialCarrier, type CredentialEnding, type Principal } from '../principal';
import { cookieValue, SESSION_COOKIE } from './session-cookie';
import { principalOfPerson, SignInSessions } from './sign-in-sessions';

export const SIGN_IN_AGAIN = 'Your sign-in session has ended (signed out, expired or revoked): sign in again at /auth/login';

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The console's cookie: a person signed in through OpenID Connect. A browser sends the cookie with
 * any request to this host, a cross-site form or fetch included, so a cookie-authenticated request
 * must also come from a page of the public URL (its Origin, else its Referer): on every route,
 * REST, GraphQL and the WebSocket upgrade alike, since every one of them asks this authenticator.
 */
@ProvidesAuthenticator()
export class CookieSessionAuthenticator implements Authenticator {
  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly sessions: SignInSessions,
  ) {}

  /** Without an issuer configured the sign-in is off: it then leaves the open loopback API open. */
  get configured(): boolean {
    return this.config.signIn.oidc !== undefined;
  }

  async principalOf(request: CredentialCarrier): Promise<Principal | undefined> {
    const oidc = this.config.signIn.oidc;
    const id = cookieValue(request.headers.cookie, SESSION_COOKIE);
    if (!oidc || !id) return undefined;
    const found = await this.sessions.lookup(id);
    if ('ended' in found) throw new UnauthorizedException({ code: 'sign_in_again', message: SIGN_IN_AGAIN });
    if (!comesFrom(oidc.publicOrigin, request)) {
      throw new ForbiddenException({
        code: 'cross_site_refused',
        message: `A request authenticated by the sign-in cookie must come from a page of ${oidc.publicOrigin} (its Origin or Referer): refused as cross-site`,
      });
    }
    return principalOfPerson(found.person, found.session);
  }

  readonly credentialKind = 'sign_in_session' as const;

  /** Sessions ended since their streams opened, on any instance (the table is shared): the open-stream check asks every half second. */
  endingsOf(ids: readonly string[]): Promise<Map<string, CredentialEnding>> {
    return this.sessions.endingsOf(ids);
  }
}

/**
 * The Origin header names the page's origin. A same-origin GET has none, and the console sends no
 * Referer (Referrer-Policy: no-referrer): there the browser's own `Sec-Fetch-Site` (which no page
 * script can set) says `same-origin` for this service's pages, and `none` for what the person did
 * themselves (typed /api/docs in the address bar, opened a bookmark): no other site asked for either.
 * Else the Referer's origin must be the public one.
 */
function comesFrom(publicOrigin: string, request: CredentialCarrier): boolean {
  const origin = single(request.headers.origin);
  if (origin !== undefined) return origin === publicOrigin;
  const site = single(request.headers['sec-fetch-site']);
  if (site === 'same-origin' || site === 'none') return true;
  const referer = single(request.headers.referer);
  if (!referer) return false;
  try {
    return new URL(referer).origin === publicOrigin;
  } catch {
    return false;
  }
}

import { Inject, Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import * as oidc from 'openid-client';
import { SWITCHBOARD_CONFIG, type SignInConfig, type SwitchboardConfig } from '../../config';
import { ROLES, type Role } from '../principal';
import type { SignedInPerson } from './sign-in-sessions';

type OidcSettings = NonNullable<SignInConfig['oidc']>;

/** What /auth/login leaves in the browser for /auth/callback to check the provider's answer against. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The authorization code flow with PKCE against the configured OpenID Connect provider, through
 * `openid-client` (certified). The provider's metadata is discovered on the first sign-in, not at
 * start, so a provider that is down delays sign-in only (503, retried on the next attempt).
 */
@Injectable()
export class OidcSignIn {
  private readonly logger = new Logger(OidcSignIn.name);
  private discovered?: Promise<oidc.Configuration>;

  constructor(@Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig) {}

  get settings(): OidcSettings | undefined {
    return this.config.signIn.oidc;
  }

  async authorizationUrl(settings: OidcSettings): Promise<{ url: URL; pending: PendingSignIn }> {
    const provider = await this.provider(settings);
    const pending: PendingSignIn = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: settings.redirectUrl,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url, pending };
  }

  /** Exchanges the code (checked against state, nonce and the PKCE verifier) and reads who signed in from the ID token. */
  async finish(settings: OidcSettings, query: string, pending: PendingSignIn): Promise<SignedInPerson> {
    const provider = await this.provider(settings);
    const callback = new URL(settings.redirectUrl);
    callback.search = query;
    const tokens = await oidc.authorizationCodeGrant(provider, callback, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the provider answered without an ID token');
    const name = [claims.name, claims.preferred_username, claims.email, claims.sub].find((v): v is string => typeof v === 'string' && v !== '');
    return {
      subject: `${claims.iss}#${claims.sub}`,
      name: name ?? claims.sub,
      role: roleOf(claims[settings.rolesClaim], settings.defaultRole),
    };
  }

  private provider(settings: OidcSettings): Promise<oidc.Configuration> {
    this.discovered ??= this.discover(settings).catch((error: unknown) => {
      this.discovered = undefined;
      this.logger.warn({ issuer: settings.issuer, error: String(error) }, 'OpenID Connect discovery failed');
      throw new ServiceUnavailableException({
        code: 'identity_provider_unavailable',
        message: `The identity provider ${settings.issuer} could not be reached: try signing in again shortly`,
      });
    });
    return this.discovered;
  }

  private discover(settings: OidcSettings): Promise<oidc.Configuration> {
    const issuer = new URL(settings.issuer);
    // A public client (no secret) proves itself by PKCE alone; plain http only for a provider on loopback (tests, development).
    const auth = settings.clientSecret ? oidc.ClientSecretPost(settings.clientSecret) : oidc.None();
    const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
    return oidc.discovery(issuer, settings.clientId, settings.clientSecret, auth, { execute });
  }
}

/** The highest role the claim names (a string, or an array of strings); none known: the default. */
export function roleOf(claim: unknown, fallback: Role): Role {
  const named = (Array.isArray(claim) ? claim : [claim]).filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase());
  const known = ROLES.filter((role) => named.includes(role));
  return known.length > 0 ? known[known.length - 1] : fallback;
}

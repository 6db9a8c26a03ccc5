import { Inject, Injectable, Logger, OnApplicationBootstrap, Optional, UnauthorizedException } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { ApiTokenGuard, UNAUTHORIZED_MESSAGE, contributionsTo } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { ApiKeysReadModel, type ApiKeyView } from './keys/api-keys-read-model';
import { secretDigest } from './keys/commands/create-api-key/create-api-key.command';
import { AUTHENTICATORS, type Authenticator, type CredentialCarrier, type Principal } from './principal';

/** The bootstrap token's holder: the operator, with every right. */
export const OPERATOR: Principal = { kind: 'operator', id: 'operator', name: 'operator', role: 'admin', via: 'bearer' };

/** Where a person starts signing in (the sign-in controller's route). */
export const SIGN_IN_PATH = '/auth/login';

/** Nobody configured a credential: the API is open as it always was (loopback, or SWITCHBOARD_ALLOW_UNAUTHENTICATED). */
export const LOCAL_ADMIN: Principal = { kind: 'local', id: 'local', name: 'local admin', role: 'admin', via: 'none' };

/**
 * Who a request is, the same way for every transport: the bootstrap bearer token, then the contributed
 * authenticators (cookie sessions), then, when no credential of any kind is configured, the local admin.
 * Anything else is a 401 saying what to send.
 */
@Injectable()
export class PrincipalResolver implements OnApplicationBootstrap {
  private readonly token: ApiTokenGuard;
  private authenticators: Authenticator[] = [];
  private readonly logger = new Logger(PrincipalResolver.name);

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly keys: ApiKeysReadModel,
    @Optional() private readonly discovery?: DiscoveryService,
  ) {
    this.token = new ApiTokenGuard(new Reflector(), config);
  }

  onApplicationBootstrap(): void {
    this.authenticators = contributionsTo<Authenticator>(this.discovery, AUTHENTICATORS);
  }

  /**
   * The principal of a request carrying these headers; `authorization` overrides the header (graphql-ws
   * sends it in the connection parameters).
   */
  async principalOf(carrier: CredentialCarrier, authorization = headerOf(carrier, 'authorization')): Promise<Principal> {
    try {
      return await this.resolve(carrier, authorization);
    } catch (refusal) {
      throw this.withSignIn(refusal);
    }
  }

  private async resolve(carrier: CredentialCarrier, authorization: string | undefined): Promise<Principal> {
    if (this.token.matches(authorization)) return OPERATOR;
    const named = namedKeyOf(authorization);
    if (named !== undefined) return this.keyPrincipal(named);
    for (const authenticator of this.authenticators) {
      const principal = await authenticator.principalOf(carrier);
      if (principal) return principal;
    }
    if (await this.isOpen()) return LOCAL_ADMIN;
    throw new UnauthorizedException({ code: 'unauthorized', message: UNAUTHORIZED_MESSAGE });
  }

  /** The principal, or undefined where the request would be refused (for routes that say less rather than refuse). */
  async principalOrNone(carrier: CredentialCarrier, authorization?: string): Promise<Principal | undefined> {
    try {
      return await this.principalOf(carrier, authorization);
    } catch (error) {
      if (error instanceof UnauthorizedException) return undefined;
      throw error;
    }
  }

  /**
   * With a sign-in method set up, a 401 says where a person signs in (`details.signIn`): the console sends
   * the browser there instead of asking for a token.
   */
  private withSignIn(refusal: unknown): unknown {
    if (!(refusal instanceof UnauthorizedException) || !this.authenticators.some((authenticator) => authenticator.configured !== false)) return refusal;
    const body = refusal.getResponse();
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : { message: body };
    const details = typeof fields.details === 'object' && fields.details !== null ? fields.details : {};
    return new UnauthorizedException({ ...fields, details: { ...details, signIn: SIGN_IN_PATH } });
  }

  /** No credential of any kind configured (no token, no sign-in method, no key ever created): today's open API. */
  private async isOpen(): Promise<boolean> {
    if (this.config.apiToken || this.authenticators.some((authenticator) => authenticator.configured !== false)) return false;
    return !(await this.keys.anyExists());
  }

  /** A named key's principal; unknown, revoked or expired: 401 saying which. */
  private async keyPrincipal(key: string): Promise<Principal> {
    const found = await this.keys.bySecretDigest(secretDigest(key));
    if (!found) throw refused(`Unknown API key ${key.slice(0, 12)}…: check it was copied whole, or have an admin create one (POST /api/keys)`);
    if (found.revokedAt) throw refused(`API key "${found.name}" (${found.prefix}…) was revoked at ${found.revokedAt}: use another key`);
    if (found.expiresAt && Date.parse(found.expiresAt) <= Date.now()) {
      throw refused(`API key "${found.name}" (${found.prefix}…) expired at ${found.expiresAt}: have an admin create a new one`);
    }
    this.recordUse(found);
    const credential = { kind: 'api_key' as const, id: found.id, ...(found.expiresAt ? { expiresAt: found.expiresAt } : {}) };
    return { kind: 'key', id: found.id, name: found.name, role: found.role, via: 'bearer', credential };
  }

  /** The last-use time is a convenience: a failed write must not refuse the call. */
  private recordUse(key: ApiKeyView): void {
    this.keys.used(key.id).catch((error: unknown) => this.logger.warn(`Could not record the use of API key ${key.id}: ${String(error)}`));
  }
}

/** The named key a bearer carries (`sbk_...`), if it carries one. */
function namedKeyOf(authorization: string | undefined): string | undefined {
  const match = /^bearer +(sbk_\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

const refused = (message: string) => new UnauthorizedException({ code: 'unauthorized', message });

function headerOf(carrier: CredentialCarrier, name: string): string | undefined {
  const value = carrier.headers[name];
  return typeof value === 'string' ? value : undefined;
}

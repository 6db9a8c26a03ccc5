import { CanActivate, ExecutionContext, Inject, Injectable, Optional, UnauthorizedException } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import { createHash, timingSafeEqual } from 'node:crypto';
import { SWITCHBOARD_CONFIG } from '../../config/config.module';
import type { SwitchboardConfig } from '../../config/switchboard-config';
import { contributionsTo } from '../contributions';
import { IS_PUBLIC } from './public.decorator';

/**
 * TEMPORARY (issue 27 part O, until part K's identity guard replaces this one): the authenticator slot
 * of src/identity/principal.ts, restated because common may not import identity (identity imports common).
 */
const AUTHENTICATORS = 'switchboard:authenticator';
const PRINCIPAL_PROPERTY = 'principal';
interface CredentialCarrier {
  headers: Record<string, string | string[] | undefined>;
}
interface Authenticator {
  principalOf(request: CredentialCarrier): Promise<object | undefined>;
}

export const UNAUTHORIZED_MESSAGE = 'Missing or wrong API token: send the header "Authorization: Bearer <SWITCHBOARD_API_TOKEN>"';

/** What a GraphQL context carries to authenticate: the HTTP request, or a WebSocket's connection params. */
export interface AuthCarrier {
  req?: { headers?: Record<string, string | string[] | undefined> };
  connectionParams?: Record<string, unknown> | null;
}

/**
 * The Authorization value of a GraphQL operation: over HTTP its header; over graphql-ws the
 * `Authorization` (or `authorization`) connection parameter, else the upgrade request's header.
 */
export function authorizationOf(carrier: AuthCarrier | undefined): string | undefined {
  const params = carrier?.connectionParams ?? undefined;
  const fromParams = params?.Authorization ?? params?.authorization;
  if (typeof fromParams === 'string') return fromParams;
  const header = carrier?.req?.headers?.authorization;
  return typeof header === 'string' ? header : undefined;
}

/**
 * When SWITCHBOARD_API_TOKEN is set, every route but @Public() ones needs `Authorization: Bearer <token>`:
 * REST handlers, GraphQL resolvers (HTTP and graphql-ws) alike.
 */
@Injectable()
export class ApiTokenGuard implements CanActivate {
  /** SHA-256 of the token: what a given token's digest is compared with. */
  private readonly expected?: Buffer;

  constructor(
    private readonly reflector: Reflector,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    @Optional() private readonly discovery?: DiscoveryService,
  ) {
    this.expected = config.apiToken ? sha256(config.apiToken) : undefined;
  }

  /** TEMPORARY (issue 27 part O, until part K's identity guard): OIDC sign-in closes the API like a token does. */
  private get closed(): boolean {
    return this.expected !== undefined || this.config.signIn?.oidc !== undefined;
  }

  /**
   * TEMPORARY (issue 27 part O, until part K's identity guard): the principal a contributed
   * authenticator (the sign-in cookie) finds on the request; it throws for a credential it owns
   * that is wrong or cross-site.
   */
  async contributedPrincipalOf(request: CredentialCarrier | undefined): Promise<object | undefined> {
    if (!request?.headers) return undefined;
    for (const authenticator of contributionsTo<Authenticator>(this.discovery, AUTHENTICATORS)) {
      const principal = await authenticator.principalOf(request);
      if (principal) return principal;
    }
    return undefined;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (!this.closed) return true;
    const isPublic = this.reflector.getAllAndOverride<boolean | ((config: SwitchboardConfig) => boolean)>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic === true || (typeof isPublic === 'function' && isPublic(this.config))) return true;
    const header =
      context.getType<GqlContextType>() === 'graphql'
        ? authorizationOf(GqlExecutionContext.create(context).getContext<AuthCarrier>())
        : context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization;
    if (this.matches(header)) return true;
    const request =
      context.getType<GqlContextType>() === 'graphql'
        ? GqlExecutionContext.create(context).getContext<AuthCarrier>().req
        : context.switchToHttp().getRequest<CredentialCarrier & Record<string, unknown>>();
    const unauthorized = new UnauthorizedException({ code: 'unauthorized', message: UNAUTHORIZED_MESSAGE });
    if (!request?.headers || contributionsTo(this.discovery, AUTHENTICATORS).length === 0) throw unauthorized;
    return this.contributedPrincipalOf(request as CredentialCarrier).then((principal) => {
      if (!principal) throw unauthorized;
      Object.assign(request, { [PRINCIPAL_PROPERTY]: principal });
      return true;
    });
  }

  /** True when no credential is configured or the header carries the token. */
  allows(header: string | undefined): boolean {
    return !this.closed || this.matches(header);
  }

  /** TEMPORARY (issue 27 part O): `allows`, or a principal from the sign-in cookie of the request. */
  async admits(header: string | undefined, request: CredentialCarrier | undefined): Promise<boolean> {
    return this.allows(header) || (await this.contributedPrincipalOf(request)) !== undefined;
  }

  /**
   * Constant-time comparison so the token cannot be guessed byte by byte from response times. The
   * digests are compared, not the tokens: both are 32 bytes whatever was sent, so no early return on
   * a length mismatch tells the token's length. The scheme is case-insensitive (RFC 9110).
   */
  matches(header: string | undefined): boolean {
    const scheme = /^bearer +/i.exec(header ?? '');
    if (!this.expected || !header || !scheme) return false;
    return timingSafeEqual(sha256(header.slice(scheme[0].length).trim()), this.expected);
  }
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

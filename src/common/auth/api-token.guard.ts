import { CanActivate, ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import { createHash, timingSafeEqual } from 'node:crypto';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../config';
import { IS_PUBLIC } from './public.decorator';

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
  ) {
    this.expected = config.apiToken ? sha256(config.apiToken) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) return true;
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
    throw new UnauthorizedException({ code: 'unauthorized', message: UNAUTHORIZED_MESSAGE });
  }

  /** True when no token is configured or the header carries it. */
  allows(header: string | undefined): boolean {
    return !this.expected || this.matches(header);
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

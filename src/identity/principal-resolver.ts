import { Inject, Injectable, OnApplicationBootstrap, Optional, UnauthorizedException } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { ApiTokenGuard, UNAUTHORIZED_MESSAGE } from '../common/auth/api-token.guard';
import { contributionsTo } from '../common/contributions';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { AUTHENTICATORS, type Authenticator, type CredentialCarrier, type Principal } from './principal';

/** The bootstrap token's holder: the operator, with every right. */
export const OPERATOR: Principal = { kind: 'operator', id: 'operator', name: 'operator', role: 'admin', via: 'bearer' };

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

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
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
    if (this.token.matches(authorization)) return OPERATOR;
    for (const authenticator of this.authenticators) {
      const principal = await authenticator.principalOf(carrier);
      if (principal) return principal;
    }
    if (this.isOpen()) return LOCAL_ADMIN;
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

  /** No credential of any kind configured: today's open API. */
  private isOpen(): boolean {
    return !this.config.apiToken && this.authenticators.every((authenticator) => authenticator.configured === false);
  }
}

function headerOf(carrier: CredentialCarrier, name: string): string | undefined {
  const value = carrier.headers[name];
  return typeof value === 'string' ? value : undefined;
}

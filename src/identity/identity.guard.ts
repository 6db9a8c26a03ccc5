import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import { authorizationOf, type AuthCarrier } from '../common/auth/api-token.guard';
import { IS_PUBLIC } from '../common/auth/public.decorator';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { PRINCIPAL_PROPERTY, type Principal } from './principal';
import { PrincipalResolver } from './principal-resolver';

/** A GraphQL context as the guard sees it: how the caller authenticated, and the principal once known. */
export interface PrincipalCarrier extends AuthCarrier {
  [PRINCIPAL_PROPERTY]?: Principal;
}

/**
 * The global guard: every REST handler (SSE streams included) and GraphQL resolver (HTTP and graphql-ws)
 * runs for an authenticated principal, put on the request (REST, SSE) or the GraphQL context. @Public()
 * routes need none.
 */
@Injectable()
export class IdentityGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly principals: PrincipalResolver,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | ((config: SwitchboardConfig) => boolean)>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic === true || (typeof isPublic === 'function' && isPublic(this.config))) return true;
    if (context.getType<GqlContextType>() === 'graphql') {
      const carrier = GqlExecutionContext.create(context).getContext<PrincipalCarrier>();
      // The context factory (HTTP) or connection (graphql-ws) authenticated once per operation already.
      carrier[PRINCIPAL_PROPERTY] ??= await this.principals.principalOf({ headers: carrier.req?.headers ?? {} }, authorizationOf(carrier));
      return true;
    }
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined>; [PRINCIPAL_PROPERTY]?: Principal }>();
    request[PRINCIPAL_PROPERTY] = await this.principals.principalOf(request);
    return true;
  }
}

import { CanActivate, ExecutionContext, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import { authorizationOf, type AuthCarrier } from '../common/auth/api-token.guard';
import { IS_PUBLIC } from '../common/auth/public.decorator';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { ApiKeysController } from './keys/api-keys.controller';
import { SignInSessionsController } from './sign-in/sign-in-sessions.controller';
import { PRINCIPAL_PROPERTY, type Principal, type Role } from './principal';
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
      const principal = (carrier[PRINCIPAL_PROPERTY] ??= await this.principals.principalOf(
        { headers: carrier.req?.headers ?? {} },
        authorizationOf(carrier),
      ));
      const info = GqlExecutionContext.create(context).getInfo<{ operation: { operation: string }; fieldName: string }>();
      const reads = info.operation.operation !== 'mutation' && info.fieldName !== 'apiKeys' && info.fieldName !== 'signInSessions';
      return allow(principal, reads ? 'viewer' : 'admin', `${info.operation.operation} ${info.fieldName}`);
    }
    const request = context
      .switchToHttp()
      .getRequest<{ method: string; headers: Record<string, string | string[] | undefined>; [PRINCIPAL_PROPERTY]?: Principal }>();
    const principal = (request[PRINCIPAL_PROPERTY] = await this.principals.principalOf(request));
    const reads =
      (request.method === 'GET' || request.method === 'HEAD') &&
      context.getClass() !== ApiKeysController &&
      context.getClass() !== SignInSessionsController;
    return allow(principal, reads ? 'viewer' : 'admin', `${request.method} ${context.getClass().name}.${context.getHandler().name}`);
  }
}

/**
 * Until the policy table (issue 27, next step) names the least role of every operation, this fails
 * closed: reads for every role, everything else (and the keys and sign-in sessions) for admins only.
 */
function allow(principal: Principal, needs: Role, what: string): true {
  if (principal.role === 'admin' || needs === 'viewer') return true;
  throw new ForbiddenException({
    code: 'forbidden',
    message: `${what} needs the ${needs} role; ${principal.name} has ${principal.role}`,
    details: { needs, role: principal.role },
  });
}

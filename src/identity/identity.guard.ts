import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import { authorizationOf, type AuthCarrier, IS_PUBLIC } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { AccessPolicy } from './app-access-policy';
import { PRINCIPAL_PROPERTY, type Principal } from './principal';
import { PrincipalResolver } from './principal-resolver';

/** A GraphQL context as the guard sees it: how the caller authenticated, and the principal once known. */
export interface PrincipalCarrier extends AuthCarrier {
  [PRINCIPAL_PROPERTY]?: Principal;
}

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * The global guard: every REST handler (SSE streams included) and GraphQL resolver (HTTP and graphql-ws)
 * runs for an authenticated principal, put on the request (REST, SSE) or the GraphQL context, whose role
 * the access table (each context's `<context>.access.ts`, gathered by `AccessPolicy`) lets call the operation. @Public() routes need none.
 */
@Injectable()
export class IdentityGuard implements CanActivate {
  private readonly logger = new Logger(IdentityGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly principals: PrincipalResolver,
    private readonly policy: AccessPolicy,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | ((config: SwitchboardConfig) => boolean)>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic === true || (typeof isPublic === 'function' && isPublic(this.config))) return true;
    if (context.getType<GqlContextType>() === 'graphql') {
      const graphql = GqlExecutionContext.create(context);
      const carrier = graphql.getContext<PrincipalCarrier>();
      // The context factory (HTTP) or connection (graphql-ws) authenticated once per operation already.
      const principal = (carrier[PRINCIPAL_PROPERTY] ??= await this.principals.principalOf(
        { headers: carrier.req?.headers ?? {} },
        authorizationOf(carrier),
      ));
      const info = graphql.getInfo<{ parentType: { name: string }; fieldName: string }>();
      // Field resolvers run without guards (no fieldResolverEnhancers); were they guarded, their root field was judged already.
      if (!ROOT_TYPES.has(info.parentType.name)) return true;
      // Refused, it is a GraphQL error (extensions code forbidden, statusCode 403, details) in a 200 answer, as GraphQL over HTTP has it.
      return this.allow(principal, `${info.parentType.name}.${info.fieldName}`);
    }
    const request = context
      .switchToHttp()
      .getRequest<{ method: string; headers: Record<string, string | string[] | undefined>; [PRINCIPAL_PROPERTY]?: Principal }>();
    const principal = (request[PRINCIPAL_PROPERTY] = await this.principals.principalOf(request));
    return this.allow(principal, `${context.getClass().name}.${context.getHandler().name}`);
  }

  /** The policy table's verdict: through, or a 403 naming the permission needed, the roles that have it, and the caller's role. */
  private allow(principal: Principal, operation: string): true {
    const verdict = this.policy.judge(operation, principal);
    // A route nobody wrote a rule for is a defect, not a caller's mistake: say so in the log.
    if (!verdict.allowed && verdict.reason === 'no_rule') this.logger.error({ operation, principal: principal.id }, verdict.message);
    this.policy.assertAllowed(operation, principal);
    return true;
  }
}

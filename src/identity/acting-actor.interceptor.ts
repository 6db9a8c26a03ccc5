import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import type { Observable } from 'rxjs';
import { actingAs, CLIENT_HEADER, personDecisionSource } from '../common';
import { actorOfPrincipal } from './actor-of-principal';
import { PRINCIPAL_PROPERTY, type Principal } from './principal';

type Carrier = { headers?: Record<string, string | string[] | undefined>; [PRINCIPAL_PROPERTY]?: Principal };

/**
 * issue 27: runs every REST handler and GraphQL resolver as its caller's actor, so the events its
 * commands append record who did it (`metadata.by`) without each command carrying it. An interceptor,
 * not the guard: it runs after the guard put the principal on the request (REST, SSE) or the GraphQL
 * context, and Nest calls the handler inside it (an AsyncLocalStorage scope around `next.handle()`
 * holds for everything the handler awaits). @Public() routes have no principal and run as the system.
 */
@Injectable()
export class ActingActorInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const carrier = carrierOf(context);
    const principal = carrier?.[PRINCIPAL_PROPERTY];
    if (!principal) return next.handle();
    const actor = actorOfPrincipal(principal, personDecisionSource(carrier.headers?.[CLIENT_HEADER]));
    return actingAs(actor, () => next.handle());
  }
}

function carrierOf(context: ExecutionContext): Carrier | undefined {
  if (context.getType<GqlContextType>() === 'graphql') {
    const gql = GqlExecutionContext.create(context).getContext<{ req?: { headers?: Carrier['headers'] }; [PRINCIPAL_PROPERTY]?: Principal }>();
    return { headers: gql.req?.headers, [PRINCIPAL_PROPERTY]: gql[PRINCIPAL_PROPERTY] };
  }
  if (context.getType() === 'http') return context.switchToHttp().getRequest<Carrier>();
  return undefined;
}

import { Args, Context, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { RevokeSignInSession, ListSignInSessions } from '../../identity';
import type { GraphqlContext } from '../graphql-context';
import { SignInSessionModel } from '../models/sign-in-session.model';

/** issue 27: people's sign-in sessions (REST /api/sign-in-sessions). */
@Resolver()
export class SignInSessionsResolver {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Query(() => [SignInSessionModel], { description: "People's sign-in sessions, newest first (never the cookie)" })
  signInSessions() {
    return this.queryBus.execute(new ListSignInSessions());
  }

  @Mutation(() => SignInSessionModel, { description: "Revoke a person's sign-in session: refused from the next request on, on every instance" })
  revokeSignInSession(@Args('id', { type: () => ID }) id: string, @Context() context: GraphqlContext) {
    if (!context.principal) throw new Error('no principal on the GraphQL context: the IdentityGuard did not run');
    return this.commandBus.execute(new RevokeSignInSession(id, context.principal));
  }
}

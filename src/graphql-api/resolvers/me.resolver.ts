import { Context, Query, Resolver } from '@nestjs/graphql';
import type { Principal } from '../../identity/principal';
import type { GraphqlContext } from '../graphql-context';
import { PrincipalModel } from '../models/principal.model';

/** issue 27: who the caller is (GET /api/me over REST). */
@Resolver()
export class MeResolver {
  @Query(() => PrincipalModel, { description: 'The calling principal and its role' })
  me(@Context() context: GraphqlContext): Principal | undefined {
    return context.principal;
  }
}

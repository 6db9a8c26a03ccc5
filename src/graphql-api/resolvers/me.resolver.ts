import { Context, Query, Resolver } from '@nestjs/graphql';
import { meOf, type MeView } from '../../identity';
import type { GraphqlContext } from '../graphql-context';
import { PrincipalModel } from '../models/principal.model';

/** issue 27: who the caller is (GET /api/me over REST). */
@Resolver()
export class MeResolver {
  @Query(() => PrincipalModel, { description: 'The calling principal and its role' })
  me(@Context() context: GraphqlContext): MeView | undefined {
    return context.principal && meOf(context.principal);
  }
}

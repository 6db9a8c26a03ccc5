import { Args, Context, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { InvalidInputError } from '../../common';
import { CreateApiKey, createApiKeySchema, RevokeApiKey, ListApiKeys, type Principal } from '../../identity';
import type { GraphqlContext } from '../graphql-context';
import { ApiKeyModel, CreatedApiKeyModel, CreateApiKeyInputModel } from '../models/api-key.model';
import { presentFields } from '../input-validation';

/** The authenticated principal: the guard put it on the context before any resolver runs. */
function principalOf(context: GraphqlContext): Principal {
  if (!context.principal) throw new Error('no principal on the GraphQL context: the IdentityGuard did not run');
  return context.principal;
}

/** issue 27: named API keys (REST /api/keys). */
@Resolver()
export class ApiKeysResolver {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Query(() => [ApiKeyModel], { description: 'Every named API key, newest first (never the key)' })
  apiKeys() {
    return this.queryBus.execute(new ListApiKeys());
  }

  @Mutation(() => CreatedApiKeyModel, { description: 'Create a named key with a role; the answer carries the key, once' })
  createApiKey(@Args('input', { type: () => CreateApiKeyInputModel }) input: CreateApiKeyInputModel, @Context() context: GraphqlContext) {
    const parsed = createApiKeySchema.safeParse(presentFields(input));
    if (!parsed.success) throw new InvalidInputError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
    return this.commandBus.execute(new CreateApiKey(parsed.data, principalOf(context)));
  }

  @Mutation(() => ApiKeyModel, { description: 'Revoke a key: refused from the next request on, on every instance' })
  revokeApiKey(@Args('id', { type: () => ID }) id: string, @Context() context: GraphqlContext) {
    return this.commandBus.execute(new RevokeApiKey(id, principalOf(context)));
  }
}

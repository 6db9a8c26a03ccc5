import { Module, UnauthorizedException } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { openTestEventStore, type TestEventStore } from '../../test/fixtures/event-store-fixture';
import { ConfigModule, loadConfig } from '../config';
import { ReadModelDatabase } from '../database';
import { handleCommand, apiKeyStreamId } from '../event-store';
import { ProjectionRegistry } from '../projections';
import { apiKeyDecider } from './keys/api-key.decider';
import { ApiKeysReadModel } from './keys/api-keys-read-model';
import { secretDigest } from './keys/commands/create-api-key/create-api-key.command';
import { ApiKeysProjection } from './keys/projections/api-keys.projection';
import { type Authenticator, type CredentialCarrier, type Principal, ProvidesAuthenticator } from './principal';
import { LOCAL_ADMIN, OPERATOR, PrincipalResolver, SIGN_IN_PATH } from './principal-resolver';

const TOKEN = 'resolver-spec-token-0123456789';
const ALICE: Principal = { kind: 'user', id: 'https://idp.example#alice', name: 'Alice', role: 'approver', via: 'cookie' };

/** A sign-in method as another module contributes it: knows the `sid=alice` cookie, refuses `sid=expired`. */
@ProvidesAuthenticator()
class CookieSessions implements Authenticator {
  async principalOf(request: CredentialCarrier): Promise<Principal | undefined> {
    if (request.headers.cookie === 'sid=alice') return ALICE;
    if (request.headers.cookie === 'sid=expired') throw new UnauthorizedException({ code: 'unauthorized', message: 'Session expired: sign in again' });
    return undefined;
  }
}

@Module({ providers: [CookieSessions] })
class SignInModule {}

/**
 * The real Nest container over a real SQLite file: the resolver finds contributed authenticators through
 * discovery, as in the app, and reads named keys from the `api_keys` table the inline projection fills.
 */
async function resolverWith(env: Record<string, string>, contributed: boolean, keys?: TestEventStore) {
  const events = keys ?? withKeysProjection();
  @Module({
    imports: [ConfigModule.forRoot(loadConfig(env)), DiscoveryModule, ...(contributed ? [SignInModule] : [])],
    providers: [PrincipalResolver, ApiKeysReadModel, { provide: ReadModelDatabase, useValue: events.database.readModels }],
  })
  class Root {}
  const context = await NestFactory.createApplicationContext(Root, { logger: false });
  return {
    resolver: context.get(PrincipalResolver),
    close: async () => {
      await context.close();
      if (!keys) events.close();
    },
  };
}

function withKeysProjection(): TestEventStore {
  const registry = new ProjectionRegistry();
  registry.register(new ApiKeysProjection());
  return openTestEventStore(undefined, registry);
}

const KEY = `sbk_${'k'.repeat(43)}`;

describe('PrincipalResolver', () => {
  const contexts: Array<() => Promise<void>> = [];
  afterAll(async () => Promise.all(contexts.map((close) => close())));
  const make = async (env: Record<string, string>, contributed: boolean, keys?: TestEventStore) => {
    const { resolver, close } = await resolverWith(env, contributed, keys);
    contexts.push(close);
    return resolver;
  };

  it('calls everyone the local admin when nothing is configured (no token, no sign-in method)', async () => {
    const resolver = await make({}, false);
    await expect(resolver.principalOf({ headers: {} })).resolves.toEqual(LOCAL_ADMIN);
    await expect(resolver.principalOf({ headers: { authorization: 'Bearer whatever' } })).resolves.toEqual(LOCAL_ADMIN);
  });

  it('answers the bootstrap token as the operator (admin) and refuses anonymous with a 401 once a token is set', async () => {
    const resolver = await make({ SWITCHBOARD_API_TOKEN: TOKEN }, false);
    await expect(resolver.principalOf({ headers: { authorization: `Bearer ${TOKEN}` } })).resolves.toEqual(OPERATOR);
    await expect(resolver.principalOf({ headers: {} })).rejects.toThrow(UnauthorizedException);
    await expect(resolver.principalOrNone({ headers: { authorization: 'Bearer wrong' } })).resolves.toBeUndefined();
  });

  it('asks contributed authenticators after the token, and a contributed sign-in method closes the open API', async () => {
    const resolver = await make({ SWITCHBOARD_API_TOKEN: TOKEN }, true);
    await expect(resolver.principalOf({ headers: { cookie: 'sid=alice' } })).resolves.toEqual(ALICE);
    await expect(resolver.principalOf({ headers: { cookie: 'sid=alice', authorization: `Bearer ${TOKEN}` } })).resolves.toEqual(OPERATOR);
    await expect(resolver.principalOf({ headers: { cookie: 'sid=expired' } })).rejects.toThrow('Session expired: sign in again');

    const noToken = await make({}, true);
    await expect(noToken.principalOf({ headers: { cookie: 'sid=alice' } })).resolves.toEqual(ALICE);
    await expect(noToken.principalOf({ headers: {} })).rejects.toThrow(UnauthorizedException);
  });

  it('says where people sign in (details.signIn) on every 401 once a sign-in method is set up, and not without one', async () => {
    const signIn = await make({ SWITCHBOARD_API_TOKEN: TOKEN }, true);
    for (const headers of [{}, { cookie: 'sid=expired' }, { authorization: `Bearer ${KEY}` }]) {
      const refusal = await signIn.principalOf({ headers }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(UnauthorizedException);
      expect((refusal as UnauthorizedException).getResponse()).toMatchObject({ code: 'unauthorized', details: { signIn: SIGN_IN_PATH } });
    }
    const expired = await signIn.principalOf({ headers: { cookie: 'sid=expired' } }).catch((error: unknown) => error);
    expect((expired as UnauthorizedException).getResponse()).toMatchObject({ message: 'Session expired: sign in again' });

    const tokenOnly = await make({ SWITCHBOARD_API_TOKEN: TOKEN }, false);
    const refusal = await tokenOnly.principalOf({ headers: {} }).catch((error: unknown) => error);
    expect((refusal as UnauthorizedException).getResponse()).not.toHaveProperty('details');
  });

  it('answers a named key as its principal, refuses it once revoked, and closes the open API once any key exists', async () => {
    const events = withKeysProjection();
    contexts.push(async () => events.close());
    const resolver = await make({}, false, events);
    await expect(resolver.principalOf({ headers: {} })).resolves.toEqual(LOCAL_ADMIN);
    const key = { keyId: 'k1', name: 'ci', role: 'operator' as const, prefix: KEY.slice(0, 12), secretSha256: secretDigest(KEY), createdBy: 'local' };
    await handleCommand(events.store, apiKeyDecider, apiKeyStreamId('k1'), { type: 'create', key, now: Date.now() });

    const bearer = { headers: { authorization: `Bearer ${KEY}` } };
    await expect(resolver.principalOf(bearer)).resolves.toEqual({
      kind: 'key',
      id: 'k1',
      name: 'ci',
      role: 'operator',
      via: 'bearer',
      // What its open streams are registered under (issue 39).
      credential: { kind: 'api_key', id: 'k1' },
    });
    await expect(resolver.principalOf({ headers: {} })).rejects.toThrow(UnauthorizedException);
    await handleCommand(events.store, apiKeyDecider, apiKeyStreamId('k1'), { type: 'revoke', keyId: 'k1', revokedBy: 'local', now: Date.now() });
    await expect(resolver.principalOf(bearer)).rejects.toThrow(/revoked at/);
  });
});

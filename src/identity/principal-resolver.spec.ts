import { Module, UnauthorizedException } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '../config/config.module';
import { loadConfig } from '../config/switchboard-config';
import { IdentityModule } from './identity.module';
import { type Authenticator, type CredentialCarrier, type Principal, ProvidesAuthenticator } from './principal';
import { LOCAL_ADMIN, OPERATOR, PrincipalResolver } from './principal-resolver';

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

/** The real Nest container: the resolver finds contributed authenticators through discovery, as in the app. */
async function resolverWith(env: Record<string, string>, contributed: boolean) {
  @Module({ imports: [ConfigModule.forRoot(loadConfig(env)), IdentityModule, ...(contributed ? [SignInModule] : [])] })
  class Root {}
  const context = await NestFactory.createApplicationContext(Root, { logger: false });
  return { resolver: context.get(PrincipalResolver), close: () => context.close() };
}

describe('PrincipalResolver', () => {
  const contexts: Array<() => Promise<void>> = [];
  afterAll(async () => Promise.all(contexts.map((close) => close())));
  const make = async (env: Record<string, string>, contributed: boolean) => {
    const { resolver, close } = await resolverWith(env, contributed);
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
});

import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { ReadModelDatabase } from '../../src/database/read-model-database';
import { SignInSessions } from '../../src/identity/sign-in/sign-in-sessions';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { CookieBrowser, signInThroughProvider, startOidcProvider, type TestOidcProvider } from '../fixtures/oidc-provider-fixture';

/** Another page this service serves (SWITCHBOARD_ALLOWED_ORIGINS) but not the console's own origin. */
const TRUSTED_OTHER_ORIGIN = 'https://dashboards.example.test';

/**
 * Issue 27, part O: people sign in to the console through a real OpenID Connect provider
 * (oidc-provider, on loopback), all over real HTTP: the code flow with PKCE through its login and
 * consent pages, a server-side session held by an HttpOnly cookie, sign-out and expiry ending it,
 * and the cookie accepted only from pages of the public URL on REST, GraphQL and the WebSocket.
 */
describe('OpenID Connect sign-in (e2e)', () => {
  let provider: TestOidcProvider;
  let app: RunningApp;
  let origin: string;

  beforeAll(async () => {
    provider = await startOidcProvider();
    const signIn = {
      oidc: {
        issuer: provider.issuer,
        clientId: 'switchboard',
        clientSecret: undefined,
        redirectUrl: '',
        publicOrigin: '',
        rolesClaim: 'roles',
        defaultRole: 'viewer' as const,
      },
      sessionTtlMs: 3_600_000,
    };
    app = await startTestApp({ signIn, requestOrigin: { allowedHosts: [], allowedOrigins: [TRUSTED_OTHER_ORIGIN] } });
    // The app's port is known once it listens: the public URL is that address (read per request, none made yet).
    origin = app.baseUrl;
    Object.assign(signIn.oidc, { redirectUrl: `${origin}/auth/callback`, publicOrigin: origin });
    await provider.register(`${origin}/auth/callback`);
  });

  afterAll(async () => {
    await app?.close();
    await provider?.stop();
  });

  /** Signs `login` in; answers the browser (holding the session cookie) and the cookie's value. */
  async function signedIn(login: string): Promise<{ browser: CookieBrowser; session: string }> {
    const browser = new CookieBrowser();
    expect(await signInThroughProvider(browser, origin, login)).toBe(`${origin}/`);
    const session = browser.cookie(origin, 'switchboard_session');
    expect(session).toBeDefined();
    return { browser, session: session! };
  }

  const personOf = async (session: string) => {
    const found = await app.app.get(SignInSessions).lookup(decodeURIComponent(session));
    if (!('person' in found)) throw new Error(`the session ended: ${found.ended}`);
    return found.person;
  };

  const graphql = (browser: CookieBrowser, headers: Record<string, string>) =>
    browser.request(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: '{ agents { name } }' }),
    });

  it('signs a person in through the provider: an HttpOnly SameSite=Lax cookie, their name and the role from the claim', async () => {
    const browser = new CookieBrowser();
    const login = await browser.request(`${origin}/auth/login`);
    expect(login.status).toBe(302);
    const authorize = new URL(login.headers.get('location')!);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${origin}/auth/callback`);

    const ada = await signedIn('ada');
    const cookie = ada.browser.setCookies.find((line) => line.startsWith('switchboard_session='));
    // Plain http here, so not Secure; never readable by the page's scripts, not sent on cross-site subrequests.
    expect(cookie?.split('; ').slice(1)).toEqual(['Path=/', 'Max-Age=3600', 'HttpOnly', 'SameSite=Lax']);
    expect(await personOf(ada.session)).toEqual({ subject: `${provider.issuer}#ada`, name: 'Ada Admin', role: 'admin' });
    expect((await signedIn('otto').then((o) => personOf(o.session))).role).toBe('operator');
    // No roles claim: SWITCHBOARD_OIDC_DEFAULT_ROLE.
    expect((await signedIn('vera').then((v) => personOf(v.session))).role).toBe('viewer');
  });

  it('the cookie authenticates the console page’s REST and GraphQL calls; without it the API is closed', async () => {
    const { browser } = await signedIn('ada');
    expect((await browser.request(`${origin}/api/sessions`, { headers: { referer: `${origin}/sessions` } })).status).toBe(200);
    const answer = await graphql(browser, { origin });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: { agents: expect.any(Array) } });

    // The console's own GET (no Origin; its pages send no Referer): the browser says same-origin.
    expect((await browser.request(`${origin}/api/sessions`, { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);

    expect((await fetch(`${origin}/api/sessions`)).status).toBe(401);
  });

  it('a 401 says where to sign in (details.signIn), on REST and GraphQL: the console sends the browser there', async () => {
    const rest = await fetch(`${origin}/api/sessions`);
    expect(rest.status).toBe(401);
    expect(await rest.json()).toMatchObject({ code: 'unauthorized', details: { signIn: '/auth/login' } });
    const gql = await graphql(new CookieBrowser(), { origin });
    expect(gql.status).toBe(401);
    expect(await gql.json()).toMatchObject({ errors: [{ extensions: { code: 'unauthorized', statusCode: 401, details: { signIn: '/auth/login' } } }] });
    const ended = await graphql(new CookieBrowser(), { origin, cookie: 'switchboard_session=not-a-session' });
    expect(await ended.json()).toMatchObject({ errors: [{ extensions: { code: 'sign_in_again', details: { signIn: '/auth/login' } } }] });
  });

  it('sign-out ends the session server-side: the same cookie replayed is 401 saying to sign in again', async () => {
    const { browser, session } = await signedIn('ada');
    const out = await browser.request(`${origin}/auth/logout`, { method: 'POST', headers: { origin, 'content-type': 'application/json' } });
    expect(out.status).toBe(204);
    expect(browser.cookie(origin, 'switchboard_session')).toBeUndefined();

    const replayed = await fetch(`${origin}/api/sessions`, { headers: { cookie: `switchboard_session=${session}`, origin } });
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ code: 'sign_in_again', message: expect.stringContaining('sign in again') });
  });

  it('an expired session is 401 and asks to sign in again', async () => {
    const { browser } = await signedIn('vera');
    expect((await browser.request(`${origin}/api/sessions`, { headers: { origin } })).status).toBe(200);
    const db = app.app.get(ReadModelDatabase);
    const { signInSessions } = db.tables;
    await db.orm
      .update(signInSessions)
      .set({ expiresAt: '2000-01-01T00:00:00.000Z' })
      .where(eq(signInSessions.subject, `${provider.issuer}#vera`));

    const expired = await browser.request(`${origin}/api/sessions`, { headers: { origin } });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: 'sign_in_again' });
  });

  describe('cross-site requests carrying the cookie are refused', () => {
    it('a cross-site form POST to REST and to GraphQL', async () => {
      const { browser } = await signedIn('ada');
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      for (const path of ['/api/sessions', '/graphql']) {
        const fromAttacker = await browser.request(`${origin}${path}`, {
          method: 'POST',
          headers: { ...form, origin: 'https://attacker.example' },
          body: 'a=1',
        });
        expect(fromAttacker.status).toBe(403);
      }
    });

    it('a cross-origin fetch from another page this service serves, and one with neither Origin nor Referer', async () => {
      const { browser } = await signedIn('ada');
      const fromOtherPage: Record<string, string> = { origin: TRUSTED_OTHER_ORIGIN };
      for (const headers of [fromOtherPage, {}]) {
        const rest = await browser.request(`${origin}/api/sessions`, { headers });
        expect(rest.status).toBe(403);
        expect(await rest.json()).toMatchObject({ code: 'cross_site_refused', message: expect.stringContaining(origin) });
        const gql = await graphql(browser, headers);
        expect(gql.status).toBe(403);
        expect(JSON.stringify(await gql.json())).toContain('cross_site_refused');
      }
    });

    it('a WebSocket from another origin; from the console’s own page the cookie opens it', async () => {
      const { browser } = await signedIn('ada');
      const cookie = browser.cookieHeader(origin);
      expect(await openWebSocket({ cookie, origin })).toBe('acked');
      expect(await openWebSocket({ cookie, origin: 'https://attacker.example' })).toBe('refused 403');
      expect(await openWebSocket({ cookie, origin: TRUSTED_OTHER_ORIGIN })).toBe('closed 4403');
    });
  });

  /** A graphql-ws handshake sending only the cookie and an Origin: what happened. */
  function openWebSocket(headers: Record<string, string>): Promise<string> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers });
      socket.on('unexpected-response', (_request, response) => resolve(`refused ${response.statusCode}`));
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      socket.on('message', (data: Buffer) => {
        if ((JSON.parse(data.toString()) as { type: string }).type === 'connection_ack') resolve('acked');
        socket.close();
      });
      socket.on('close', (code) => resolve(`closed ${code}`));
      socket.on('error', () => undefined);
    });
  }
});

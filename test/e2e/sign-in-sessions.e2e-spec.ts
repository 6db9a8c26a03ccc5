import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { CookieBrowser, signInThroughProvider, startOidcProvider, type TestOidcProvider } from '../fixtures/oidc-provider-fixture';
import { type PostgresServer, startPostgresServer } from '../fixtures/postgres-server';
import { makeTempDir } from '../fixtures/temp-dir';
import { WatchedSession } from '../fixtures/watched-session';
import type { SwitchboardConfig } from '../../src/config/switchboard-config';

type Json = Record<string, unknown>;

/** How late an ended session's streams may close (issue 39: within a second). */
const CLOSES_WITHIN_MS = 1_000;

/** A session's stream watched with a person's cookie, from a page of `origin`, by SSE and graphql-ws, both past a live event. */
async function watchedWith(app: RunningApp, cookie: string, origin: string, sessionId: string) {
  const session = await WatchedSession.create(app.app, sessionId);
  const sse = await session.sse(app.baseUrl, { cookie, origin });
  expect(sse.status).toBe(200);
  const subscription = session.subscription(app.baseUrl, { headers: { cookie, origin } });
  await subscription.waitFor((v) => v.length === 1, 'the replayed session.created');
  await session.tick();
  await sse.waitFor((e) => e.event === 'cli.test.tick', 'the first live event over SSE');
  await subscription.waitFor((v) => v.some((e) => e.sessionEvents.type === 'cli.test.tick'), 'the first live event over graphql-ws');
  return { session, sse, subscription };
}

/** Both ended within CLOSES_WITHIN_MS of `since`, saying why; an event appended afterwards reaches neither. */
async function expectClosed(watched: Awaited<ReturnType<typeof watchedWith>>, since: number, says: string) {
  const { session, sse, subscription } = watched;
  await Promise.all([sse.waitForEnd(CLOSES_WITHIN_MS + 2_000), subscription.waitForEnd(CLOSES_WITHIN_MS + 2_000)]);
  expect(Date.now() - since).toBeLessThan(CLOSES_WITHIN_MS);
  expect(sse.events.at(-1)).toMatchObject({ event: 'closed', data: { code: 'credential_revoked', message: expect.stringContaining(says) } });
  expect(subscription.errors).toEqual([{ closeCode: 4401, reason: expect.stringContaining(says) }]);
  const seen = [sse.events.length, subscription.values.length];
  await session.tick();
  expect([sse.events.length, subscription.values.length]).toEqual(seen);
  await session.dispose();
}

/** Another page this service serves (SWITCHBOARD_ALLOWED_ORIGINS) but not the console's own origin: past the origin rule, not the cookie's. */
const TRUSTED_OTHER_ORIGIN = 'https://dashboards.example.test';
type SessionRow = { id: string; subject: string; name: string; role: string; state: string; revokedAt: string | null; expiresAt: string };

/** Sign-in configured for an app whose address is known only once it listens (filled in by `atOrigin`). */
function signInSettings(issuer: string): SwitchboardConfig['signIn'] {
  return {
    oidc: { issuer, clientId: 'switchboard', clientSecret: undefined, redirectUrl: '', publicOrigin: '', rolesClaim: 'roles', defaultRole: 'viewer' },
    sessionTtlMs: 3_600_000,
  };
}

function atOrigin(signIn: SwitchboardConfig['signIn'], origin: string): void {
  Object.assign(signIn.oidc!, { redirectUrl: `${origin}/auth/callback`, publicOrigin: origin });
}

/**
 * Issue 27, part S, over real HTTP with a real OpenID Connect provider (oidc-provider, on loopback):
 * an admin lists people's sign-in sessions and revokes one (REST and GraphQL), the revoked cookie is
 * 401 at once, on this instance and on another sharing the PostgreSQL; /api/docs and the health detail
 * take the signed-in cookie under the cookie's cross-site rule; the service closed by sign-in alone.
 */
describe('sign-in sessions, administered (e2e)', () => {
  // The test provider registers one redirect URI per process: one provider per app (or pair of apps).
  let provider: TestOidcProvider;

  async function signedIn(origin: string, login: string): Promise<{ browser: CookieBrowser; cookie: string }> {
    const browser = new CookieBrowser();
    expect(await signInThroughProvider(browser, origin, login)).toBe(`${origin}/`);
    return { browser, cookie: browser.cookieHeader(origin) };
  }

  /** A JSON call from a page of `origin` carrying `cookie` (as the console sends it). */
  async function call(url: string, origin: string, cookie: string, method = 'GET', body?: unknown): Promise<{ status: number; body: Json }> {
    const response = await fetch(url, {
      method,
      headers: { cookie, origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
  }

  describe('one instance, sign-in only (no token)', () => {
    let app: RunningApp;
    let origin: string;

    beforeAll(async () => {
      provider = await startOidcProvider();
      const signIn = signInSettings(provider.issuer);
      app = await startTestApp({ signIn, requestOrigin: { allowedHosts: [], allowedOrigins: [TRUSTED_OTHER_ORIGIN] } });
      origin = app.baseUrl;
      atOrigin(signIn, origin);
      await provider.register(`${origin}/auth/callback`);
    });
    afterAll(async () => {
      await app?.close();
      await provider?.stop();
    });

    const sessions = (cookie: string) => call(`${origin}/api/sign-in-sessions`, origin, cookie);
    const graphql = (cookie: string, query: string) => call(`${origin}/graphql`, origin, cookie, 'POST', { query });

    it('an admin lists who is signed in and revokes a session: its cookie is 401 saying sign in again at the next request', async () => {
      const ada = await signedIn(origin, 'ada');
      const otto = await signedIn(origin, 'otto');
      expect((await call(`${origin}/api/me`, origin, otto.cookie)).body).toMatchObject({ name: 'Otto Operator' });

      const listed = await sessions(ada.cookie);
      expect(listed.status).toBe(200);
      const rows = listed.body.sessions as SessionRow[];
      const ottos = rows.find((row) => row.name === 'Otto Operator');
      expect(ottos).toMatchObject({ subject: `${provider.issuer}#otto`, role: 'operator', state: 'active', revokedAt: null });
      expect(rows.find((row) => row.name === 'Ada Admin')).toMatchObject({ role: 'admin', state: 'active' });
      // The list names sessions, never their cookies.
      expect(JSON.stringify(listed.body)).not.toContain(otto.cookie.split('=')[1]);

      const revoked = await call(`${origin}/api/sign-in-sessions/${ottos!.id}`, origin, ada.cookie, 'DELETE');
      expect(revoked).toMatchObject({ status: 200, body: { id: ottos!.id, name: 'Otto Operator', state: 'revoked', revokedAt: expect.any(String) } });

      const refused = await call(`${origin}/api/me`, origin, otto.cookie);
      expect(refused).toMatchObject({ status: 401, body: { code: 'sign_in_again', message: expect.stringContaining('sign in again') } });
      // The admin's own session is untouched.
      expect((await call(`${origin}/api/me`, origin, ada.cookie)).status).toBe(200);
    });

    it('revoking an ended session is 409, an unknown one 404, each saying what to do', async () => {
      const ada = await signedIn(origin, 'ada');
      const vera = await signedIn(origin, 'vera');
      const veras = ((await sessions(ada.cookie)).body.sessions as SessionRow[]).find((row) => row.name === 'Vera Viewer' && row.state === 'active');
      // Vera signs herself out: her session has ended, there is nothing left to revoke.
      expect(
        (await vera.browser.request(`${origin}/auth/logout`, { method: 'POST', headers: { origin, 'content-type': 'application/json' } })).status,
      ).toBe(204);
      const again = await call(`${origin}/api/sign-in-sessions/${veras!.id}`, origin, ada.cookie, 'DELETE');
      expect(again).toMatchObject({ status: 409, body: { code: 'invalid_state', message: expect.stringContaining('nothing to revoke') } });

      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-session']) {
        const unknown = await call(`${origin}/api/sign-in-sessions/${id}`, origin, ada.cookie, 'DELETE');
        expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found', message: expect.stringContaining('GET /api/sign-in-sessions') } });
      }
    });

    it('only an admin may list or revoke sessions, over REST and GraphQL', async () => {
      const otto = await signedIn(origin, 'otto');
      const ada = await signedIn(origin, 'ada');
      const adas = ((await sessions(ada.cookie)).body.sessions as SessionRow[]).find((row) => row.name === 'Ada Admin' && row.state === 'active');
      expect((await sessions(otto.cookie)).status).toBe(403);
      expect((await call(`${origin}/api/sign-in-sessions/${adas!.id}`, origin, otto.cookie, 'DELETE')).status).toBe(403);
      const listed = await graphql(otto.cookie, '{ signInSessions { id } }');
      expect(listed.body).toMatchObject({ data: null, errors: [{ extensions: { code: 'forbidden', statusCode: 403 } }] });
      expect((await call(`${origin}/api/sign-in-sessions`, origin, '')).status).toBe(401);
    });

    it('GraphQL lists sessions and revokes one, refused at once afterwards', async () => {
      const ada = await signedIn(origin, 'ada');
      const vera = await signedIn(origin, 'vera');
      const listed = await graphql(ada.cookie, '{ signInSessions { id name role state createdAt expiresAt revokedAt subject } }');
      expect(listed.status).toBe(200);
      const veras = ((listed.body.data as Json).signInSessions as SessionRow[]).find((row) => row.name === 'Vera Viewer' && row.state === 'active');
      expect(veras).toMatchObject({ role: 'viewer', subject: `${provider.issuer}#vera`, revokedAt: null });
      expect((await call(`${origin}/api/me`, origin, vera.cookie)).status).toBe(200);

      const revoked = await graphql(ada.cookie, `mutation { revokeSignInSession(id: "${veras!.id}") { id state revokedAt } }`);
      expect(revoked.body).toEqual({ data: { revokeSignInSession: { id: veras!.id, state: 'revoked', revokedAt: expect.any(String) } } });
      expect((await call(`${origin}/api/me`, origin, vera.cookie)).status).toBe(401);

      const twice = await graphql(ada.cookie, `mutation { revokeSignInSession(id: "${veras!.id}") { id } }`);
      expect(JSON.stringify(twice.body)).toContain('nothing to revoke');
    });

    it('a revocation closes the SSE streams and graphql-ws sockets the session holds open, within a second, saying why (issue 39)', async () => {
      const ada = await signedIn(origin, 'ada');
      const vera = await signedIn(origin, 'vera');
      const watched = await watchedWith(app, vera.cookie, origin, 'watched-by-vera');
      const veras = ((await sessions(ada.cookie)).body.sessions as SessionRow[]).find((row) => row.name === 'Vera Viewer' && row.state === 'active');
      const revokedAt = Date.now();
      expect((await call(`${origin}/api/sign-in-sessions/${veras!.id}`, origin, ada.cookie, 'DELETE')).status).toBe(200);
      await expectClosed(watched, revokedAt, 'sign in again');
      // The admin's own streams are untouched: a new one opens and gets events.
      const adas = await watchedWith(app, ada.cookie, origin, 'watched-by-ada');
      await adas.session.dispose();
    });

    it('signing out closes the streams of that session (issue 39)', async () => {
      const vera = await signedIn(origin, 'vera');
      const watched = await watchedWith(app, vera.cookie, origin, 'watched-until-sign-out');
      const signedOutAt = Date.now();
      expect(
        (await vera.browser.request(`${origin}/auth/logout`, { method: 'POST', headers: { origin, 'content-type': 'application/json' } })).status,
      ).toBe(204);
      await expectClosed(watched, signedOutAt, 'sign in again');
    });

    it('/api/docs and /api/docs-json take the signed-in cookie from the service’s own pages and from the address bar; a cross-site request gets 403', async () => {
      const vera = await signedIn(origin, 'vera');
      const get = (path: string, headers: Record<string, string>) => fetch(`${origin}${path}`, { headers });
      for (const path of ['/api/docs', '/api/docs-json']) {
        // Opened from a console page (same-origin), typed in the address bar (none), fetched by the Swagger UI page.
        for (const site of ['same-origin', 'none']) {
          expect({ path, site, status: (await get(path, { cookie: vera.cookie, 'sec-fetch-site': site })).status }).toEqual({ path, site, status: 200 });
        }
        expect((await get(path, { cookie: vera.cookie, origin })).status).toBe(200);
        // Another page this service serves, and a request saying nothing of where it comes from: the cookie's own rule.
        for (const headers of [{ origin: TRUSTED_OTHER_ORIGIN }, {}] as Record<string, string>[]) {
          const crossSite = await get(path, { cookie: vera.cookie, ...headers });
          expect({ path, headers, status: crossSite.status }).toEqual({ path, headers, status: 403 });
          expect(await crossSite.json()).toMatchObject({ code: 'cross_site_refused', message: expect.stringContaining(origin) });
        }
        // Another site altogether: the service's origin rule answers first.
        expect((await get(path, { cookie: vera.cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
        expect((await get(path, {})).status).toBe(401);
      }
      const document = (await (await get('/api/docs-json', { cookie: vera.cookie, origin })).json()) as { paths: Json };
      expect(document.paths).toHaveProperty(['/api/sign-in-sessions/{id}']);
    });

    it('GET /health shows its detail to a signed-in person on the service’s pages, the summary to anyone else', async () => {
      const vera = await signedIn(origin, 'vera');
      const health = async (headers: Record<string, string>) => (await fetch(`${origin}/health`, { headers })).json() as Promise<Json>;
      expect(await health({ cookie: vera.cookie, origin })).toHaveProperty('database.status', 'up');
      expect(await health({ cookie: vera.cookie, 'sec-fetch-site': 'same-origin' })).toHaveProperty('instance.id');
      const others: Record<string, string>[] = [
        {},
        { cookie: vera.cookie, origin: TRUSTED_OTHER_ORIGIN },
        { cookie: vera.cookie },
        { cookie: 'switchboard_session=forged' },
      ];
      for (const headers of others) {
        const summary = await health(headers);
        expect(summary).toEqual({ status: 'ok', checks: expect.objectContaining({ database: 'ok' }) });
      }
    });
  });

  describe('two instances sharing a PostgreSQL', () => {
    let server: PostgresServer;
    const apps: RunningApp[] = [];

    beforeAll(async () => {
      provider = await startOidcProvider();
      server = await startPostgresServer();
      const url = await server.createDatabase('sign_in_sessions');
      // Both behind one public URL (A's address here): the cookie works on either.
      const signIn = signInSettings(provider.issuer);
      apps.push(await startTestApp({ signIn, postgres: { url, poolSize: 2 } }, makeTempDir().dir));
      atOrigin(signIn, apps[0].baseUrl);
      apps.push(
        await startTestApp(
          { signIn, postgres: { url, poolSize: 2 }, requestOrigin: { allowedHosts: [], allowedOrigins: [apps[0].baseUrl] } },
          makeTempDir().dir,
        ),
      );
      await provider.register(`${apps[0].baseUrl}/auth/callback`);
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      server?.stop();
      await provider?.stop();
    });

    it('a session revoked through one instance is refused on the other at its next request', async () => {
      const [a, b] = apps;
      const origin = a.baseUrl;
      const ada = await signedIn(origin, 'ada');
      const otto = await signedIn(origin, 'otto');
      expect((await call(`${b.baseUrl}/api/me`, origin, otto.cookie)).body).toMatchObject({ name: 'Otto Operator' });
      expect((await call(`${a.baseUrl}/api/me`, origin, otto.cookie)).status).toBe(200);

      const listed = await call(`${b.baseUrl}/api/sign-in-sessions`, origin, ada.cookie);
      const ottos = (listed.body.sessions as SessionRow[]).find((row) => row.name === 'Otto Operator');
      expect((await call(`${b.baseUrl}/api/sign-in-sessions/${ottos!.id}`, origin, ada.cookie, 'DELETE')).status).toBe(200);

      for (const instance of [a, b]) {
        const refused = await call(`${instance.baseUrl}/api/me`, origin, otto.cookie);
        expect(refused).toMatchObject({ status: 401, body: { code: 'sign_in_again' } });
      }
    });

    it('a session revoked through one instance loses its streams on the other within a second (issue 39)', async () => {
      const [a, b] = apps;
      const origin = a.baseUrl;
      const ada = await signedIn(origin, 'ada');
      const otto = await signedIn(origin, 'otto');
      const watched = await watchedWith(a, otto.cookie, origin, 'watched-by-otto-on-a');
      const ottos = ((await call(`${b.baseUrl}/api/sign-in-sessions`, origin, ada.cookie)).body.sessions as SessionRow[]).find(
        (row) => row.name === 'Otto Operator' && row.state === 'active',
      );
      const revokedAt = Date.now();
      expect((await call(`${b.baseUrl}/api/sign-in-sessions/${ottos!.id}`, origin, ada.cookie, 'DELETE')).status).toBe(200);
      await expectClosed(watched, revokedAt, 'sign in again');
    });
  });
});

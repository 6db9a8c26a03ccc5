import { eq } from 'drizzle-orm';
import { CookieSessionAuthenticator } from '../../src/identity/sign-in/cookie-session.authenticator';
import { SignInSessions } from '../../src/identity/sign-in/sign-in-sessions';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';

const PUBLIC = 'https://switchboard.example.test';
const tmp = makeTempDir();
afterAll(() => tmp.cleanup());
const config = testConfig(tmp.dir, {
  signIn: {
    oidc: {
      issuer: 'https://id.example.test',
      clientId: 'switchboard',
      clientSecret: undefined,
      redirectUrl: `${PUBLIC}/auth/callback`,
      publicOrigin: PUBLIC,
      rolesClaim: 'roles',
      defaultRole: 'viewer',
    },
    sessionTtlMs: 3_600_000,
  },
});
const ada = { subject: 'https://id.example.test#ada', name: 'Ada Admin', role: 'admin' as const };
const vera = { subject: 'https://id.example.test#vera', name: 'Vera Viewer', role: 'viewer' as const };

/**
 * spec: issue 27, part O. Sign-in sessions on both stores: the table keeps only the id's hash; a
 * session is accepted until it expires or is ended, and an instance sharing the database sees a
 * sign-out at once (nothing cached). Part S: an admin lists and revokes them; expired rows are cleared.
 */
describe.each(readModelTargets())('sign-in sessions on %s', (_name, open) => {
  let target: ReadModelTarget;
  let sessions: SignInSessions;
  beforeEach(async () => {
    target = await open();
    sessions = new SignInSessions(config, target.db);
  });
  afterEach(() => target.close());

  it('keeps the hash of the cookie id, never the id, and answers the person until the session ends', async () => {
    const id = await sessions.start(ada);
    const rows = await target.db.orm.select().from(target.db.tables.signInSessions);
    expect(rows).toHaveLength(1);
    expect(rows[0].idHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(id);
    // The session's own id (what its open streams are closed by), never the cookie's.
    const found = await sessions.lookup(id);
    expect(found).toEqual({ person: ada, session: { id: expect.any(String), expiresAt: expect.any(String) } });
    expect('session' in found && found.session.id).not.toBe(id);
    expect(await sessions.lookup(`${id}x`)).toEqual({ ended: 'unknown' });

    // Another instance on the same database: its own SignInSessions.
    const elsewhere = new SignInSessions(config, target.db);
    await sessions.end(id);
    expect(await elsewhere.lookup(id)).toEqual({ ended: 'revoked' });
  });

  it('an expired session is refused: the authenticator says to sign in again', async () => {
    const id = await sessions.start(ada);
    const cookies = new CookieSessionAuthenticator(config, sessions);
    const request = { headers: { cookie: `other=1; switchboard_session=${id}`, origin: PUBLIC } };
    expect(await cookies.principalOf(request)).toEqual({
      kind: 'user',
      id: ada.subject,
      name: 'Ada Admin',
      role: 'admin',
      via: 'cookie',
      credential: { kind: 'sign_in_session', id: expect.any(String), expiresAt: expect.any(String) },
    });

    const { signInSessions } = target.db.tables;
    await target.db.orm
      .update(signInSessions)
      .set({ expiresAt: new Date(Date.now() - 1).toISOString() })
      .where(eq(signInSessions.subject, ada.subject));
    expect(await sessions.lookup(id)).toEqual({ ended: 'expired' });
    await expect(cookies.principalOf(request)).rejects.toMatchObject({ response: { code: 'sign_in_again' } });
    // No cookie: not this authenticator's request.
    expect(await cookies.principalOf({ headers: { origin: PUBLIC } })).toBeUndefined();
  });

  it('lists sessions by an id that is not the cookie, and a revocation through one instance is refused on another', async () => {
    const adas = await sessions.start(ada);
    const veras = await sessions.start(vera);
    const listed = await sessions.list();
    expect(listed.map((s) => [s.name, s.role, s.state])).toEqual(
      expect.arrayContaining([
        ['Ada Admin', 'admin', 'active'],
        ['Vera Viewer', 'viewer', 'active'],
      ]),
    );
    expect(JSON.stringify(listed)).not.toContain(adas);
    expect(JSON.stringify(listed)).not.toContain(veras);
    const verasId = listed.find((s) => s.name === 'Vera Viewer')!.id;
    expect(verasId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const elsewhere = new SignInSessions(config, target.db);
    expect(await elsewhere.revoke(verasId.toUpperCase())).toMatchObject({ id: verasId, state: 'revoked', revokedAt: expect.any(String) });
    expect(await sessions.lookup(veras)).toEqual({ ended: 'revoked' });
    expect(await sessions.lookup(adas)).toMatchObject({ person: ada });
    expect((await sessions.list()).find((s) => s.id === verasId)).toMatchObject({ state: 'revoked' });

    await expect(sessions.revoke(verasId)).rejects.toMatchObject({ code: 'invalid_state', details: { state: 'revoked' } });
    await expect(sessions.revoke('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found' });
    await expect(sessions.revoke('%')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('an expired session is listed as expired, cannot be revoked (409), and is deleted at the next sign-in', async () => {
    const old = await sessions.start(vera);
    const { signInSessions } = target.db.tables;
    await target.db.orm
      .update(signInSessions)
      .set({ expiresAt: new Date(Date.now() - 1).toISOString() })
      .where(eq(signInSessions.subject, vera.subject));
    const [expired] = await sessions.list();
    expect(expired).toMatchObject({ name: 'Vera Viewer', state: 'expired', revokedAt: null });
    await expect(sessions.revoke(expired.id)).rejects.toMatchObject({ code: 'invalid_state', message: expect.stringContaining('expired at') });

    await sessions.start(ada);
    expect((await sessions.list()).map((s) => s.name)).toEqual(['Ada Admin']);
    // Deleted or not, the cookie gets the same answer: sign in again.
    expect(await sessions.lookup(old)).toEqual({ ended: 'unknown' });
  });

  it('takes the cookie from the service’s own pages and from what the person typed, never from another site', async () => {
    const id = await sessions.start(ada);
    const cookies = new CookieSessionAuthenticator(config, sessions);
    const cookie = `switchboard_session=${id}`;
    for (const headers of [{ origin: PUBLIC }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, { referer: `${PUBLIC}/sessions` }]) {
      expect(await cookies.principalOf({ headers: { cookie, ...headers } })).toMatchObject({ kind: 'user', name: 'Ada Admin' });
    }
    const otherSites: Record<string, string>[] = [
      {},
      { origin: 'https://attacker.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of otherSites) {
      await expect(cookies.principalOf({ headers: { cookie, ...headers } })).rejects.toMatchObject({ response: { code: 'cross_site_refused' } });
    }
  });
});

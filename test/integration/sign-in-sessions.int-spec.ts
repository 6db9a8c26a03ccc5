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

/**
 * spec: issue 27, part O. Sign-in sessions on both stores: the table keeps only the id's hash; a
 * session is accepted until it expires or is ended, and an instance sharing the database sees a
 * sign-out at once (nothing cached).
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
    expect(await sessions.lookup(id)).toEqual({ person: ada });
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
    expect(await cookies.principalOf(request)).toEqual({ kind: 'user', id: ada.subject, name: 'Ada Admin', role: 'admin', via: 'cookie' });

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
});

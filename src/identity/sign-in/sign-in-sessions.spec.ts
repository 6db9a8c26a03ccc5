import { SignInSessionEndedError } from './sign-in-session.errors';
import { sessionIdOf, type SignInSessionView } from './sign-in-sessions';

describe('sign-in sessions as the admin API names them', () => {
  it('names a session by the first 128 bits of its stored hash, written as a UUID, never by the rest', () => {
    const hash = 'a'.repeat(8) + 'b'.repeat(4) + 'c'.repeat(4) + 'd'.repeat(4) + 'e'.repeat(12) + 'f'.repeat(32);
    expect(sessionIdOf(hash)).toBe('aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee');
    expect(sessionIdOf(hash)).not.toContain('f');
  });

  it('says how an ended session ended when it cannot be revoked again', () => {
    const session: SignInSessionView = {
      id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      subject: 'https://id.example.test#vera',
      name: 'Vera Viewer',
      role: 'viewer',
      createdAt: '2026-11-27T10:00:00.000Z',
      expiresAt: '2026-11-27T22:00:00.000Z',
      revokedAt: null,
      state: 'expired',
    };
    expect(new SignInSessionEndedError(session).message).toBe(
      'Sign-in session aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee of Vera Viewer expired at 2026-11-27T22:00:00.000Z: nothing to revoke',
    );
    const revoked = new SignInSessionEndedError({ ...session, state: 'revoked', revokedAt: '2026-11-27T11:00:00.000Z' });
    expect(revoked).toMatchObject({ code: 'invalid_state', details: { sessionId: session.id, state: 'revoked' } });
    expect(revoked.message).toContain('was ended at 2026-11-27T11:00:00.000Z (signed out or revoked)');
  });
});

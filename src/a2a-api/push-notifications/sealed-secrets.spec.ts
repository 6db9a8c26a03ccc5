import { SealedSecrets } from './sealed-secrets';

describe('SealedSecrets', () => {
  const secrets = new SealedSecrets('k'.repeat(32));

  it('opens what it sealed; the sealed form shows nothing of the secret and differs each time', () => {
    const sealed = secrets.seal('client-token-123');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('client-token');
    expect(secrets.seal('client-token-123')).not.toBe(sealed);
    expect(secrets.open(sealed)).toBe('client-token-123');
  });

  it('cannot open what another key sealed, an altered seal, or something that is no seal', () => {
    const sealed = secrets.seal('client-token-123');
    expect(new SealedSecrets('j'.repeat(32)).open(sealed)).toBeUndefined();
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(secrets.open(altered)).toBeUndefined();
    expect(secrets.open('client-token-123')).toBeUndefined();
    expect(secrets.open('v1.abc')).toBeUndefined();
  });
});

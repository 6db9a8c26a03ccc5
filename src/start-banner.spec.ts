import { startBanner } from './start-banner';

describe('startBanner', () => {
  const facts = { host: '127.0.0.1', port: 3000, tokenRequired: false, console: 'served' as const };

  it('names the console URL and says no token is needed on an open service', () => {
    expect(startBanner(facts)).toBe(
      'Switchboard is up: console at http://127.0.0.1:3000/ (no token needed); API docs http://127.0.0.1:3000/api/docs, GraphQL IDE http://127.0.0.1:3000/graphql',
    );
  });

  it('says a token is needed when SWITCHBOARD_API_TOKEN is set', () => {
    expect(startBanner({ ...facts, tokenRequired: true })).toContain('console at http://127.0.0.1:3000/ (sign in with the SWITCHBOARD_API_TOKEN value)');
  });

  it('sends people to sign in when OpenID Connect sign-in is configured, with or without a token', () => {
    for (const tokenRequired of [false, true]) {
      expect(startBanner({ ...facts, tokenRequired, signIn: true })).toContain('console at http://127.0.0.1:3000/ (people sign in at /auth/login)');
    }
  });

  it('gives an address a browser can open: localhost for a wildcard listen address, brackets for IPv6, the public URL when set', () => {
    expect(startBanner({ ...facts, host: '0.0.0.0' })).toContain('console at http://localhost:3000/');
    expect(startBanner({ ...facts, host: '::' })).toContain('console at http://localhost:3000/');
    expect(startBanner({ ...facts, host: '::1' })).toContain('console at http://[::1]:3000/');
    expect(startBanner({ ...facts, host: '0.0.0.0', publicUrl: 'https://switchboard.example.com' })).toContain(
      'console at https://switchboard.example.com/',
    );
  });

  it('says how to build the console when it is missing, and that it is off when disabled', () => {
    expect(startBanner({ ...facts, console: 'missing' })).toContain('the console is not built (run npm run build:web), API at http://127.0.0.1:3000/api');
    expect(startBanner({ ...facts, console: 'disabled' })).toContain('console off (SWITCHBOARD_CONSOLE=false)');
  });
});

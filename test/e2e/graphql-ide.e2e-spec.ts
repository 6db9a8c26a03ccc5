import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONSOLE_CONTENT_SECURITY_POLICY, GRAPHQL_IDE_CONTENT_SECURITY_POLICY, GRAPHQL_IDE_PAGE } from '../../src/console/serve-console';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { makeTempDir } from '../fixtures/temp-dir';

const TOKEN = 'graphql-ide-token-0123456789';
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** A built console with the IDE's page, as `vite build` leaves them (the real bundle is driven by web/e2e/graphql-ide.spec.ts). */
function builtConsole(): string {
  const { dir } = makeTempDir();
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Switchboard</title><div id="root"></div>');
  fs.writeFileSync(path.join(dir, GRAPHQL_IDE_PAGE), '<!doctype html><title>Switchboard GraphQL IDE</title><div id="graphiql"></div>');
  return dir;
}

describe('GET /graphql in a browser is the GraphQL IDE; API clients are unaffected', () => {
  let running: RunningApp;
  const at = (p: string, init: RequestInit = {}) => fetch(`${running.baseUrl}${p}`, init);

  beforeAll(async () => (running = await startTestApp({ apiToken: TOKEN, console: { dir: builtConsole() } })));
  afterAll(() => running.close());

  it('serves the IDE page to a browser, without the token (a page, like the console), with its CSP: inline styles, no inline scripts', async () => {
    const page = await at('/graphql', { headers: BROWSER });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<div id="graphiql">');
    expect(page.headers.get('content-security-policy')).toBe(GRAPHQL_IDE_CONTENT_SECURITY_POLICY);
    expect(GRAPHQL_IDE_CONTENT_SECURITY_POLICY).toContain("script-src 'self';");
    expect(GRAPHQL_IDE_CONTENT_SECURITY_POLICY).not.toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(page.headers.get('vary')).toMatch(/Accept/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('answers API clients as before: a GET without a browser Accept is the GraphQL server (CSRF and token rules)', async () => {
    for (const accept of [undefined, 'application/json', 'application/graphql-response+json', '*/*']) {
      const headers: Record<string, string> = accept ? { accept } : {};
      // Apollo's CSRF check, as before the IDE: a GET without a preflight-forcing header is not run.
      const refused = await at('/graphql?query=%7B__typename%7D', { headers });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/json/);
      expect((await at('/graphql?query=%7B__typename%7D', { headers: { ...headers, 'apollo-require-preflight': 'true' } })).status).toBe(401);
      const answered = await at('/graphql?query=%7B__typename%7D', {
        headers: { ...headers, authorization: `Bearer ${TOKEN}`, 'apollo-require-preflight': 'true' },
      });
      expect(answered.status).toBe(200);
      expect(await answered.json()).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it("the IDE's requests pass: a same-origin JSON POST with the token; the same from another site is refused", async () => {
    const ide = (origin: string, authorization = `Bearer ${TOKEN}`) =>
      at('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', origin, authorization },
        body: JSON.stringify({ query: '{ agents { id } }' }),
      });
    const answered = await ide(running.baseUrl);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ data: { agents: [] } });
    expect((await ide(running.baseUrl, 'Bearer wrong-token-wrong-token')).status).toBe(401);
    expect((await ide('https://evil.example')).status).toBe(403);
  });
});

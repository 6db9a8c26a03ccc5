import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONSOLE_CONTENT_SECURITY_POLICY } from '../../src/console/serve-console';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { makeTempDir } from '../fixtures/temp-dir';

const TOKEN = 'console-serving-token-0123456789';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** A built console in a temp folder: index.html and one hashed asset, as `vite build` leaves them. */
function builtConsole(): string {
  const { dir } = makeTempDir();
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Switchboard</title><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("console")');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

describe('the web console at /, on the same origin as the API', () => {
  describe('when it is built', () => {
    let running: RunningApp;
    const get = (p: string, headers: Record<string, string> = {}) => fetch(`${running.baseUrl}${p}`, { headers });

    beforeAll(async () => {
      running = await startTestApp({ apiToken: TOKEN, console: { dir: builtConsole() } });
    });
    afterAll(() => running.close());

    it('serves index.html to a browser at / and at any page path, without the token, with a strict CSP', async () => {
      for (const page of ['/', '/agents', '/agents/code-reviewer']) {
        const response = await get(page, HTML);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(await response.text()).toContain('<div id="root">');
        expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
        expect(response.headers.get('x-frame-options')).toBe('DENY');
        expect(response.headers.get('cache-control')).toBe('no-cache');
      }
    });

    it('caches hashed assets for good and the rest never', async () => {
      const asset = await get('/assets/index-abc123.js');
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await get('/favicon.svg')).headers.get('cache-control')).toBe('no-cache');
    });

    it('never shadows the API: its paths answer JSON, with their token rule, whatever the Accept header', async () => {
      for (const apiPath of ['/api/agents', '/metrics']) {
        const response = await get(apiPath, HTML);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.status).toBe(401);
      }
      const graphql = await get('/graphql', HTML);
      expect(graphql.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await graphql.text()).not.toContain('<div id="root">');
      const unknown = await get('/api/nothing-here', { ...HTML, authorization: `Bearer ${TOKEN}` });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'not_found' });
      expect((await get('/health/live', HTML)).headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('answers a JSON client at / as before: 404 with the error shape', async () => {
      const response = await get('/', { accept: 'application/json' });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ statusCode: 404, code: 'not_found' });
    });

    it('does not serve files outside the console folder', async () => {
      const response = await get('/..%2f..%2fpackage.json', HTML);
      expect(await response.text()).not.toContain('"name": "switchboard"');
    });
  });

  it('says how to build the console when the bundle is missing (and the API still works)', async () => {
    const { dir } = makeTempDir();
    const running = await startTestApp({ console: { dir: path.join(dir, 'not-built') } });
    try {
      const page = await fetch(`${running.baseUrl}/`, { headers: HTML });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('npm run build:web');
      expect((await fetch(`${running.baseUrl}/api/agents`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('is off with SWITCHBOARD_CONSOLE=false: / is the API 404', async () => {
    const running = await startTestApp({ console: { dir: undefined } });
    try {
      const page = await fetch(`${running.baseUrl}/`, { headers: HTML });
      expect(page.status).toBe(404);
      expect(await page.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await running.close();
    }
  });
});

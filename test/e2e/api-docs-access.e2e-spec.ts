import { type RunningApp, startTestApp } from '../fixtures/app-fixture';

const TOKEN = 'api-docs-e2e-token-0123456789';
const DOCS = ['/api/docs', '/api/docs/', '/api/docs-json', '/api/docs-yaml'];

async function statusOf(
  app: RunningApp,
  path: string,
  authorization?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; location: string | null }> {
  const response = await fetch(`${app.baseUrl}${path}`, { headers: { ...headers, ...(authorization ? { authorization } : {}) }, redirect: 'manual' });
  return { status: response.status, body: await response.text(), location: response.headers.get('location') };
}

/** What a browser sends when a person opens a page (a link, the address bar). */
const NAVIGATION = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
};

/** Swagger's routes sit outside Nest's guard: they follow the /api token rule unless SWITCHBOARD_API_DOCS_PUBLIC=true. */
describe('/api/docs access', () => {
  const apps: RunningApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  it('needs the API token when one is set, with the 401 of /api; a browser opening the UI goes to the console', async () => {
    const app = await startTestApp({ apiToken: TOKEN });
    apps.push(app);
    for (const path of DOCS) {
      for (const authorization of [undefined, 'Bearer not-the-token-0123456789']) {
        const refused = await statusOf(app, path, authorization);
        expect({ path, status: refused.status }).toEqual({ path, status: 401 });
        expect(JSON.parse(refused.body)).toEqual({
          statusCode: 401,
          code: 'unauthorized',
          message: expect.stringContaining('Authorization: Bearer <SWITCHBOARD_API_TOKEN>'),
        });
      }
      expect({ path, status: (await statusOf(app, path, `Bearer ${TOKEN}`)).status }).toEqual({ path, status: 200 });
    }
    const document = JSON.parse((await statusOf(app, '/api/docs-json', `Bearer ${TOKEN}`)).body);
    expect(document.paths).toHaveProperty(['/api/sessions']);

    // A named key is refused as /api refuses it, saying why.
    const unknownKey = await statusOf(app, '/api/docs-json', 'Bearer sbk_not-a-key-of-this-service');
    expect(unknownKey.status).toBe(401);
    expect(JSON.parse(unknownKey.body)).toMatchObject({ statusCode: 401, code: 'unauthorized', message: expect.stringContaining('Unknown API key') });

    // A browser cannot send the header on a navigation: one that opens the UI goes to the console's API
    // docs page (the console is on, as by default); the document and programs still get the 401.
    for (const path of ['/api/docs', '/api/docs/']) {
      const opened = await statusOf(app, path, undefined, NAVIGATION);
      expect({ path, status: opened.status, location: opened.location }).toEqual({ path, status: 303, location: '/docs/api' });
      expect((await statusOf(app, path, `Bearer ${TOKEN}`, NAVIGATION)).status).toBe(200);
    }
    for (const path of ['/api/docs-json', '/api/docs-yaml', '/api/docs/swagger-ui-init.js']) {
      expect({ path, status: (await statusOf(app, path, undefined, NAVIGATION)).status }).toEqual({ path, status: 401 });
    }
    const withoutConsole = await startTestApp({ apiToken: TOKEN, console: { dir: undefined } });
    apps.push(withoutConsole);
    expect((await statusOf(withoutConsole, '/api/docs', undefined, NAVIGATION)).status).toBe(401);
  });

  it('is open with SWITCHBOARD_API_DOCS_PUBLIC=true, while /api still needs the token', async () => {
    const app = await startTestApp({ apiToken: TOKEN, apiDocs: { public: true } });
    apps.push(app);
    for (const path of DOCS) expect({ path, status: (await statusOf(app, path)).status }).toEqual({ path, status: 200 });
    expect((await statusOf(app, '/api/agents')).status).toBe(401);
  });

  it('is open like /api when no token is configured', async () => {
    const app = await startTestApp({});
    apps.push(app);
    for (const path of DOCS) expect({ path, status: (await statusOf(app, path)).status }).toEqual({ path, status: 200 });
    expect((await statusOf(app, '/api/docs')).body).toContain('swagger-ui');
  });
});

import { type RunningApp, startTestApp } from '../fixtures/app-fixture';

const TOKEN = 'api-docs-e2e-token-0123456789';
const DOCS = ['/api/docs', '/api/docs/', '/api/docs-json', '/api/docs-yaml'];

async function statusOf(app: RunningApp, path: string, authorization?: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${app.baseUrl}${path}`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, body: await response.text() };
}

/** Swagger's routes sit outside Nest's guard: they follow the /api token rule unless SWITCHBOARD_API_DOCS_PUBLIC=true. */
describe('/api/docs access', () => {
  const apps: RunningApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  it('needs the API token when one is set, with the 401 of /api', async () => {
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

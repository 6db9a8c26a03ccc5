import { CopilotCliConnection } from '../../src/copilot-cli/copilot-cli-connection';
import { loadConfig } from '../../src/config/switchboard-config';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { waitUntil } from '../fixtures/wait-until';

/**
 * spec: issue 25, Route. A protocol-2 CLI cannot hand its model calls to a client: Switchboard never asks
 * it to, says why (`modelRoute`, /health), and gives its sessions the provider as before, key included,
 * so they keep working without the ledger.
 */
describe('a protocol-2 CLI keeps working without the model route (fake CLI over TCP, real app)', () => {
  let h: SessionHarness;

  beforeAll(async () => {
    h = await startSessionHarness({ protocolVersion: 2 });
  });
  afterAll(() => h.close());

  it('is not asked to route, says so, and gets the provider on session.create as before', async () => {
    const created = await h.http('POST', '/api/sessions', {});
    expect(created.status).toBe(201);
    expect(created.body.protocolVersion).toBe(2);

    const route = h.app.app.get(CopilotCliConnection).modelRoute();
    expect(route).toEqual({ routed: false, reason: expect.stringContaining('protocol 2') });
    const health = await h.http('GET', '/health');
    expect(health.body.copilotCli.modelRoute).toEqual(route);

    expect(h.fake.received.map((r) => r.method)).not.toContain('llmInference.setProvider');
    const create = await h.fake.waitFor<Json>('session.create');
    expect(create.provider).toEqual({ type: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'test' });

    // The session works as it did: a message goes to the CLI.
    expect((await h.http('POST', `/api/sessions/${created.body.sessionId}/messages`, { prompt: 'hello' })).status).toBe(202);
    await waitUntil(() => h.fake.received.some((r) => r.method === 'session.send'), 'the message to reach the CLI');
  });
});

/** SWITCHBOARD_MODEL_ROUTE=off: even a CLI that could route is left to call the provider itself, as before issue 25. */
describe('SWITCHBOARD_MODEL_ROUTE=off (fake protocol-3 CLI over TCP, real app)', () => {
  let h: SessionHarness;

  beforeAll(async () => {
    const config = loadConfig({ SWITCHBOARD_MODEL_ROUTE: 'off' });
    h = await startSessionHarness({ config: { modelCalls: config.modelCalls } });
  });
  afterAll(() => h.close());

  it('never asks the CLI to route, says why, and gives its sessions the provider with the key', async () => {
    const created = await h.http('POST', '/api/sessions', {});
    expect(created.status).toBe(201);
    expect(created.body.protocolVersion).toBe(3);
    expect(h.app.app.get(CopilotCliConnection).modelRoute()).toEqual({ routed: false, reason: 'SWITCHBOARD_MODEL_ROUTE is off' });
    expect(h.fake.received.map((r) => r.method)).not.toContain('llmInference.setProvider');
    const create = await h.fake.waitFor<Json>('session.create');
    expect(create.provider).toEqual({ type: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'test' });
  });
});

import { appStoreTargets } from '../fixtures/app-store-targets';
import { FakeCopilotCli } from '../fixtures/fake-copilot-cli';
import { startTestApp } from '../fixtures/app-fixture';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

const statusOf = async (h: SessionHarness, id: string) => (await h.http('GET', `/api/sessions/${id}`)).body.status;

/** On SQLite and on PostgreSQL: a restart is a new app (a new instance) on the same database. */
describe.each(appStoreTargets())('session lifecycle against a CLI that dies and a service that restarts (%s)', (_name, store) => {
  let h: SessionHarness;
  beforeEach(async () => (h = await startSessionHarness({ store })));
  afterEach(() => h.close());

  it('marks sessions interrupted when the CLI dies, reconnects, and resumes them with the full configuration', async () => {
    const id = await h.createTeamSession();
    expect((await h.http('POST', `/api/sessions/${id}/messages`, { prompt: 'hello' })).status).toBe(202);
    h.fake.received.length = 0;
    await h.fake.dropConnections();

    await waitUntil(async () => (await statusOf(h, id)) === 'interrupted', 'the session to be interrupted');
    const session = (await h.http('GET', `/api/sessions/${id}`)).body;
    expect(session.statusReason).toMatch(/The Copilot CLI exited/);
    await h.fake.waitFor('connect', undefined, 10_000); // restarted (reconnected) without being asked

    const refused = await h.http('POST', `/api/sessions/${id}/messages`, { prompt: 'again' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`POST /api/sessions/${id}/resume`);

    const resumed = await h.http('POST', `/api/sessions/${id}/resume`);
    expect(resumed).toMatchObject({ status: 200, body: { sessionId: id, status: 'idle' } });
    const params = await h.fake.waitFor<Json>('session.resume', (p) => p.sessionId === id);
    expect(params.provider).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1' });
    expect(params.tools.map((t: Json) => t.name)).toEqual(['lookup', 'secret']);
    expect(params.customAgents[0].toolDefinitions.map((t: Json) => t.name)).toEqual(['lookup']);
    expect((await h.http('POST', `/api/sessions/${id}/messages`, { prompt: 'after resume' })).status).toBe(202);
    expect((await h.http('POST', `/api/sessions/${id}/resume`)).status).toBe(409);

    // Every event a session command recorded (interrupt and resume included) carries the session as correlation id.
    expect((await h.http('DELETE', `/api/sessions/${id}`)).status).toBe(200);
    const recorded = (await h.http('GET', `/api/streams/session-${id}/events?limit=1000`)).body.events as Json[];
    const decided = recorded.filter((e) => String(e.type).startsWith('session.'));
    expect(decided.map((e) => e.type)).toEqual(
      expect.arrayContaining(['session.created', 'session.started', 'session.interrupted', 'session.resumed', 'session.destroyed']),
    );
    expect(decided.filter((e) => e.metadata.correlationId !== id).map((e) => e.type)).toEqual([]);
  });

  it('after its own restart, reloads sessions (one between turns as it was) and still resolves a late child request', async () => {
    const id = await h.createTeamSession();
    await h.fake.emitEvent(id, { type: 'subagent.started', agentId: 'task-9', data: { toolCallId: 'call_9', agentName: 'keeper' } });
    await waitUntil(async () => (await h.http('GET', `/api/sessions/${id}`)).body.subAgentLaunches.length === 1, 'the mapping to be stored');

    h.fake.received.length = 0;
    await h.restartApp();
    // No turn was under way: not interrupted, its next message resumes it (issue 39).
    expect(await statusOf(h, id)).toBe('active');
    await h.fake.waitFor('connect', undefined, 10_000); // reconnects at start because sessions exist

    const answered = h.fake.waitFor<Json>('session.tools.handlePendingToolCall', (p) => p.requestId === 'late-1', 5000);
    await h.fake.emitEvent(id, {
      type: 'external_tool.requested',
      agentId: 'task-9',
      data: { requestId: 'late-1', toolCallId: 'c', toolName: 'lookup', arguments: { key: 'late' } },
    });
    expect((await answered).result.textResultForLlm).toBe('ok:lookup');
    const denied = h.fake.waitFor<Json>('session.tools.handlePendingToolCall', (p) => p.requestId === 'late-2', 5000);
    await h.fake.emitEvent(id, {
      type: 'external_tool.requested',
      agentId: 'task-9',
      data: { requestId: 'late-2', toolCallId: 'd', toolName: 'secret', arguments: {} },
    });
    expect((await denied).result.textResultForLlm).toBe("Tool 'secret' is not supported by this client instance.");
  });

  it('refuses bad session requests with 400 naming the field, and unknown sessions with 404', async () => {
    const bad = await h.http('POST', '/api/sessions', { tools: [{ name: 'bad name!', description: 'x', handler: { type: 'webhook', url: 'ftp://x' } }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/tools\.0\.name/);
    expect(bad.body.message).toMatch(/tools\.0\.handler\.url/);
    const dup = await h.http('POST', '/api/sessions', {
      customAgents: [
        { name: 'a', prompt: 'p' },
        { name: 'a', prompt: 'q' },
      ],
    });
    expect(dup).toMatchObject({ status: 400, body: { message: expect.stringContaining('agent a is defined twice') } });
    const builtin = await h.http('POST', '/api/sessions', { tools: [{ name: 't', description: 'd', handler: { type: 'builtin', name: 'nope' } }] });
    expect(builtin).toMatchObject({ status: 400, body: { message: expect.stringContaining('Unknown built-in tool handler: t -> nope') } });
    expect((await h.http('POST', '/api/sessions/nope/messages', { prompt: 'x' })).status).toBe(404);
    expect((await h.http('POST', '/api/sessions/nope/messages', {})).status).toBe(400);
    expect((await h.http('DELETE', '/api/sessions/nope')).status).toBe(404);
  });
});

describe('session creation refusals', () => {
  it('without a provider or token says which variables to set (503), and sends nothing to the CLI', async () => {
    const fake = await new FakeCopilotCli().start();
    const { dir, cleanup } = makeTempDir();
    const app = await startTestApp({ cli: { ...testConfig(dir).cli, url: fake.url } }, dir);
    try {
      const response = await fetch(`${app.baseUrl}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(response.status).toBe(503);
      const body = (await response.json()) as Json;
      expect(body.message).toContain('COPILOT_PROVIDER_BASE_URL');
      expect(body.message).toContain('COPILOT_GITHUB_TOKEN');
      expect(fake.received.filter((r) => r.method === 'session.create')).toHaveLength(0);
    } finally {
      await app.close();
      await fake.stop();
      cleanup();
    }
  });

  it('refuses a CLI that speaks an unsupported protocol with a clear error', async () => {
    const h = await startSessionHarness({ protocolVersion: 9 });
    try {
      const response = await h.http('POST', '/api/sessions', {});
      expect(response.status).toBe(503);
      expect(response.body.message).toBe(
        'The Copilot CLI speaks protocol 9; Switchboard supports protocols 2 and 3. Install a matching @github/copilot or set COPILOT_CLI_PATH.',
      );
    } finally {
      await h.close();
    }
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { makeTempDir } from '../fixtures/temp-dir';

const agent = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id.replace(/-/g, ' '),
  description: `The ${id}`,
  system_message: { mode: 'append', content: `You are the ${id}.` },
  ...extra,
});

/** spec: agent-teams FR-3..FR-5, through the real app against the fake CLI over TCP. */
describe('sessions with an agent team', () => {
  let h: SessionHarness;
  const mcp = makeTempDir();
  const mcpFile = path.join(mcp.dir, 'mcp-config.json');

  beforeAll(async () => {
    fs.writeFileSync(mcpFile, JSON.stringify({ mcpServers: { github: { type: 'http', url: 'http://127.0.0.1:1/mcp' } } }));
    h = await startSessionHarness({ config: { mcpConfigFile: mcpFile } });
    const created = await Promise.all([
      h.http('POST', '/api/agents', agent('reviewer', { model: 'reviewer-model', tools: { builtin: ['view', 'grep'] }, mcp_servers: ['github'] })),
      h.http('POST', '/api/agents', agent('tester')),
      h.http('POST', '/api/agents', agent('writer')),
    ]);
    expect(created.map((r) => r.status)).toEqual([201, 201, 201]);
    const lead = await h.http(
      'POST',
      '/api/agents',
      agent('lead', { system_message: { mode: 'replace', content: 'You lead.' }, model: 'lead-model', sub_agents: ['reviewer', 'tester'] }),
    );
    expect(lead.status).toBe(201);
  });
  afterAll(async () => {
    await h.close();
    mcp.cleanup();
  });

  const createParams = (sessionId: string) => h.fake.waitFor<Json>('session.create', (p) => p.sessionId === sessionId);

  it("maps the agent's sub-agents to customAgents by the spec's field table, with its model and system message", async () => {
    const response = await h.http('POST', '/api/sessions', { agentId: 'lead' });
    expect(response.status).toBe(201);
    const params = await createParams(response.body.sessionId);
    expect(params.model).toBe('lead-model');
    expect(params.systemMessage).toEqual({ mode: 'replace', content: 'You lead.' });
    expect(params.customAgents).toEqual([
      {
        name: 'reviewer',
        displayName: 'reviewer',
        description: 'The reviewer',
        prompt: 'You are the reviewer.',
        infer: true,
        tools: ['view', 'grep'],
        toolDefinitions: [],
        mcpServers: { github: { type: 'http', url: 'http://127.0.0.1:1/mcp' } },
        model: 'reviewer-model',
      },
      { name: 'tester', displayName: 'tester', description: 'The tester', prompt: 'You are the tester.', infer: true },
    ]);
  });

  it("uses the sub-agents selected for the session; de-selected ones and the session's own agent are not sent", async () => {
    const response = await h.http('POST', '/api/sessions', { agentId: 'lead', subAgents: ['writer'] });
    const params = await createParams(response.body.sessionId);
    expect(params.customAgents.map((a: Json) => a.name)).toEqual(['writer']);

    const self = await h.http('POST', '/api/sessions', { agentId: 'lead', subAgents: ['lead'] });
    expect(self.status).toBe(422);
    expect(self.body.details.problems).toEqual([{ id: 'lead', reason: expect.stringContaining('cannot be its own sub-agent') }]);
  });

  it('refuses to start a team with an ineligible or unknown sub-agent: 422 naming each, an error event, nothing sent', async () => {
    await h.http('POST', '/api/agents', agent('tool-user', { tools: { custom: ['deploy'] } }));
    const before = h.fake.received.filter((r) => r.method === 'session.create').length;
    const response = await h.http('POST', '/api/sessions', { agentId: 'lead', subAgents: ['tool-user', 'ghost'] });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('invalid_sub_agents');
    expect(response.body.details.problems).toEqual([
      { id: 'tool-user', reason: expect.stringContaining('has custom tools (deploy)') },
      { id: 'ghost', reason: expect.stringContaining('no agent with id ghost exists') },
    ]);
    expect(h.fake.received.filter((r) => r.method === 'session.create')).toHaveLength(before);
    const stream = await h.http('GET', `/api/streams/session-${response.body.details.sessionId}/events`);
    expect(stream.body.events.map((e: Json) => e.type)).toEqual(['session.created', 'session.start_failed']);
    expect(stream.body.events[1].data.problems).toHaveLength(2);
    expect((await h.http('GET', `/api/sessions/${response.body.details.sessionId}`)).body.status).toBe('failed');
  });

  it('re-validates at resume: a sub-agent changed in between stops the resume with its reason, and nothing is sent', async () => {
    const response = await h.http('POST', '/api/sessions', { agentId: 'lead', subAgents: ['tester'] });
    const sessionId = response.body.sessionId as string;
    const tester = (await h.http('GET', '/api/agents/tester')).body;
    const changed = await h.http('PUT', '/api/agents/tester', { ...tester, tools: { ...tester.tools, excluded_builtin: ['bash'] } });
    expect(changed.status).toBe(200);
    expect((await h.http('GET', '/api/agents/lead')).body.sub_agent_problems).toEqual([
      { id: 'tester', reason: expect.stringContaining('excludes built-in tools (bash)') },
    ]);

    h.fake.received.length = 0;
    await h.fake.dropConnections();
    await h.fake.waitFor('connect', undefined, 10_000);
    const refused = await h.http('POST', `/api/sessions/${sessionId}/resume`);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('cannot resume');
    expect(refused.body.details.problems).toEqual([{ id: 'tester', reason: expect.stringContaining('use tools.builtin instead') }]);
    expect(h.fake.received.filter((r) => r.method === 'session.resume')).toHaveLength(0);

    // Fixing the agent, or de-selecting it for this session, lets the resume through.
    const patched = await h.http('PATCH', `/api/sessions/${sessionId}`, { subAgents: ['writer'] });
    expect(patched).toMatchObject({ status: 200, body: { subAgents: ['writer'] } });
    expect((await h.http('POST', `/api/sessions/${sessionId}/resume`)).status).toBe(200);
    const resumed = await h.fake.waitFor<Json>('session.resume', (p) => p.sessionId === sessionId);
    expect(resumed.customAgents.map((a: Json) => a.name)).toEqual(['writer']);
    expect((await h.http('GET', `/api/sessions/${sessionId}`)).body.config.subAgents).toEqual(['writer']);
  });

  it('refuses PATCH of sub-agents that cannot be used, and of unknown sessions', async () => {
    const response = await h.http('POST', '/api/sessions', { agentId: 'lead', subAgents: [] });
    const bad = await h.http('PATCH', `/api/sessions/${response.body.sessionId}`, { subAgents: ['lead', 'nobody'] });
    expect(bad.status).toBe(422);
    expect(bad.body.details.problems.map((p: Json) => p.id)).toEqual(['lead', 'nobody']);
    expect((await h.http('PATCH', '/api/sessions/nope', { subAgents: [] })).status).toBe(404);
    expect((await h.http('PATCH', `/api/sessions/${response.body.sessionId}`, { subAgents: 'writer' })).status).toBe(400);
  });

  it('names an MCP server the config does not define', async () => {
    await h.http('POST', '/api/agents', agent('mcp-user', { mcp_servers: ['jira'] }));
    const response = await h.http('POST', '/api/sessions', { subAgents: ['mcp-user'] });
    expect(response.status).toBe(422);
    expect(response.body.details.problems[0].reason).toContain(`MCP server jira that ${mcpFile} does not define`);
  });

  it('starts without an agent as before (no team)', async () => {
    const response = await h.http('POST', '/api/sessions', {});
    expect(response.status).toBe(201);
    expect((await createParams(response.body.sessionId)).customAgents).toEqual([]);
  });
});

import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';

const TOKEN = 'session-defaults-token-0123456789';

/**
 * issue 24: an agent's session defaults (delegation, permission_policy, budget) on the real Copilot CLI,
 * and the operator's switches a console reads before offering them (GET /api/session-options), on a
 * default install: host permissions closed.
 */
describe("an agent's session defaults and the session options, on the real Copilot CLI", () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
  const anonymous = jsonHttp(() => running.app.baseUrl);
  const gql = graphqlHttp(() => running.app.baseUrl, TOKEN);

  beforeAll(async () => {
    await model.start();
    model.setScript([{ name: 'answer', who: 'parent', answer: { text: 'OK' } }]);
    running = await startRealCliApp(model, { apiToken: TOKEN });
    for (const agent of [
      { id: 'code-reviewer', name: 'Code Reviewer', description: 'Reviews code', system_message: { content: 'You review code.' } },
      {
        id: 'engineering-lead',
        name: 'Engineering Lead',
        description: 'Leads',
        system_message: { content: 'You lead.' },
        sub_agents: ['code-reviewer'],
        permission_policy: { allow_kinds: ['read'], ask_tools: ['agent_run'] },
        budget: { max_runs: 4 },
      },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  /** The tools the model was offered on the session's first turn. */
  async function offeredTools(sessionId: string, marker: string): Promise<string[]> {
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: marker })).status).toBe(202);
    const [request] = await model.waitForRequests((r) => JSON.stringify(r.lastMessage).includes(marker));
    return request.toolNames;
  }

  async function sessionCount(): Promise<number> {
    return ((await http('GET', '/api/sessions')).body.sessions as Json[]).length;
  }

  it('tells a console which permission kinds it may offer, and what opens the others, behind the token', async () => {
    expect((await anonymous('GET', '/api/session-options')).status).toBe(401);
    const { status, body } = await http('GET', '/api/session-options');
    expect(status).toBe(200);
    const kinds = Object.fromEntries((body.permissionKinds as Json[]).map((k) => [k.kind, k]));
    expect(Object.keys(kinds)).toEqual(['shell', 'write', 'read', 'url', 'mcp', 'custom-tool', 'memory']);
    for (const host of ['shell', 'write', 'url']) {
      expect(kinds[host]).toMatchObject({ allowed: false, enabledBy: 'SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true' });
      expect(kinds[host].refusedReason).toContain('this host');
    }
    expect(kinds.read).toMatchObject({ allowed: true, refusedReason: null, enabledBy: null });
    expect(kinds.read.note).toContain('working directory');
    expect(body.delegationTools).toEqual(['agent_run', 'agent_stop', 'agent_output']);
    expect(body.budgetLimits).toEqual(expect.arrayContaining([{ name: 'max_runs', max: 2_147_483_647 }]));

    const reply = await gql('{ sessionOptions { permissionKinds { kind allowed refusedReason enabledBy } delegationTools approvalTimeoutMs } }');
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.sessionOptions.permissionKinds[0]).toEqual({
      kind: 'shell',
      allowed: false,
      refusedReason: kinds.shell.refusedReason,
      enabledBy: 'SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true',
    });
  });

  it("starts a lead's session with its defaults: delegation (it has sub-agents), its policy and its budget", async () => {
    const created = await http('POST', '/api/sessions', { agentId: 'engineering-lead' });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    const view = (await http('GET', `/api/sessions/${sessionId}`)).body;
    expect(view.delegation).toBe(true);
    expect(view.permissionPolicy).toEqual({ allowKinds: ['read'], approveOwnTools: true, askTools: ['agent_run'] });
    expect((await http('GET', `/api/sessions/${sessionId}/budget`)).body).toMatchObject({ limits: { maxRuns: 4 } });
    expect(await offeredTools(sessionId, 'MARKER_LEAD_DEFAULTS')).toEqual(expect.arrayContaining(['agent_run', 'agent_stop', 'agent_output']));

    const reply = await gql('query ($id: ID!) { session(id: $id) { delegation permissionPolicy { allowKinds askKinds askTools } } }', { id: sessionId });
    expect(reply.body.data.session).toEqual({ delegation: true, permissionPolicy: { allowKinds: ['read'], askKinds: [], askTools: ['agent_run'] } });
    await http('DELETE', `/api/sessions/${sessionId}`);
  });

  it("lets the session's request say otherwise, field by field", async () => {
    const created = await http('POST', '/api/sessions', { agentId: 'engineering-lead', delegation: false, permissionPolicy: { askKinds: ['mcp'] } });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    const view = (await http('GET', `/api/sessions/${sessionId}`)).body;
    expect(view.delegation).toBe(false);
    expect(view.permissionPolicy).toEqual({ allowKinds: [], approveOwnTools: true, askKinds: ['mcp'] });
    expect(await offeredTools(sessionId, 'MARKER_NO_DELEGATION')).not.toContain('agent_run');
    await http('DELETE', `/api/sessions/${sessionId}`);
  });

  it('keeps the defaults in the agent format (REST, GraphQL, export) and refuses a kind or limit it does not know', async () => {
    const lead = (await http('GET', '/api/agents/engineering-lead')).body;
    expect(lead).toMatchObject({ permission_policy: { allow_kinds: ['read'], ask_kinds: [], ask_tools: ['agent_run'] }, budget: { max_runs: 4 } });
    expect(lead).not.toHaveProperty('delegation');
    const reply = await gql('{ agent(id: "engineering-lead") { delegation permissionPolicy { allowKinds askTools } budget { maxRuns maxTokens } } }');
    expect(reply.body.data.agent).toEqual({
      delegation: null,
      permissionPolicy: { allowKinds: ['read'], askTools: ['agent_run'] },
      budget: { maxRuns: 4, maxTokens: null },
    });
    const exported = (await http('GET', '/api/agents/export')).body;
    expect(JSON.stringify(exported)).toContain('\\"permission_policy\\"');

    const bad = await http('POST', '/api/agents', { id: 'bad', name: 'Bad', permission_policy: { ask_kinds: ['root'] }, budget: { max_runs: 0 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('permission_policy');
    expect(JSON.stringify(bad.body)).toContain('budget');
  });

  it("refuses a session whose agent's default asks a host kind the operator has not opened, naming the agent's field, and leaves none behind", async () => {
    const operator = {
      id: 'operator',
      name: 'Operator',
      system_message: { content: 'You run commands.' },
      permission_policy: { ask_kinds: ['shell'] },
    };
    expect((await http('POST', '/api/agents', operator)).status).toBe(201);
    const before = await sessionCount();
    const refused = await http('POST', '/api/sessions', { agentId: 'operator' });
    expect(refused.status).toBe(422);
    const text = JSON.stringify(refused.body);
    expect(text).toContain('agent operator: permission_policy.ask_kinds[0]');
    expect(text).toContain('SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true');
    expect(await sessionCount()).toBe(before);
    // The request's own policy replaces the agent's: the same agent starts with one the operator allows.
    const allowed = await http('POST', '/api/sessions', { agentId: 'operator', permissionPolicy: { askKinds: ['read'] } });
    expect(allowed.status).toBe(201);
    await http('DELETE', `/api/sessions/${allowed.body.sessionId as string}`);
  });
});

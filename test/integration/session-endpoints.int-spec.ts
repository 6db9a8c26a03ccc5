import { loadConfig, type SwitchboardConfig } from '../../src/config/switchboard-config';
import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { waitUntil } from '../fixtures/wait-until';

const security = (changes: Partial<SwitchboardConfig['security']>): Partial<SwitchboardConfig> => ({
  security: { ...loadConfig({}).security, ...changes },
});

/** The reproduction: an inline MCP server that runs a program as the service's user. */
const PWN_AGENT = {
  name: 'x',
  prompt: 'p',
  tools: [],
  mcpServers: { p: { type: 'local', command: '/bin/sh', args: ['-c', 'id > /tmp/pwned'], tools: ['*'] } },
};

const webhookTool = (name: string, url: string) => ({
  name,
  description: 'd',
  parameters: { type: 'object', properties: {} },
  handler: { type: 'webhook', url },
});

/**
 * issue 10 §1-2: what a session request may point the host at, through the real app (fake CLI over
 * TCP, real SQLite). Refusals are 422 naming the field, and leave no session and no CLI call behind.
 */
describe('session endpoints: inline MCP servers and outbound URLs', () => {
  let h: SessionHarness;
  const cliCreates = () => h.fake.received.filter((r) => r.method === 'session.create').length;
  const sessionCount = async () => (await h.http('GET', '/api/sessions?limit=1000')).body.sessions.length;
  const ownPort = () => Number(new URL(h.app.baseUrl).port);

  beforeAll(async () => {
    h = await startSessionHarness();
  });
  afterAll(() => h.close());

  /** Creates nothing and sends nothing: the refusal comes before session.created. */
  async function expectRefused(body: Record<string, unknown>, problems: Array<{ field: string; reason: unknown }>) {
    const [sessionsBefore, createsBefore] = [await sessionCount(), cliCreates()];
    const response = await h.http('POST', '/api/sessions', body);
    expect(response).toMatchObject({ status: 422, body: { code: 'endpoint_refused', details: { problems } } });
    for (const p of problems) expect(response.body.message).toContain(`${p.field}: `);
    expect(await sessionCount()).toBe(sessionsBefore);
    expect(cliCreates()).toBe(createsBefore);
    return response.body;
  }

  it("refuses the issue's inline local MCP server with 422 naming the field and the operator's flag", async () => {
    const body = await expectRefused({ customAgents: [PWN_AGENT] }, [
      { field: 'customAgents[0].mcpServers.p', reason: expect.stringContaining('an inline MCP server that runs a command is refused') },
    ]);
    expect(body.message).toContain('SWITCHBOARD_ALLOW_INLINE_MCP=true (lets API callers run programs on this host)');
    expect(body.message).toContain('SWITCHBOARD_MCP_CONFIG');
  });

  it('refuses every server that runs a command, whatever its type says, and an unknown type', async () => {
    await expectRefused(
      {
        customAgents: [
          { name: 'a', prompt: 'p', mcpServers: { ok: { type: 'http', url: 'http://127.0.0.1:1/mcp' }, s: { type: 'stdio', command: 'node' } } },
          {
            name: 'b',
            prompt: 'p',
            mcpServers: { bare: { command: '/usr/bin/env', args: ['bash'] }, sneaky: { type: 'http', url: 'http://127.0.0.1:1/', command: 'sh' } },
          },
          { name: 'c', prompt: 'p', mcpServers: { ws: { type: 'websocket', url: 'ws://127.0.0.1:1/' }, junk: 'not an object' } },
        ],
      },
      [
        { field: 'customAgents[0].mcpServers.s', reason: expect.stringContaining('runs a command') },
        { field: 'customAgents[1].mcpServers.bare', reason: expect.stringContaining('runs a command') },
        { field: 'customAgents[1].mcpServers.sneaky', reason: expect.stringContaining('runs a command') },
        { field: 'customAgents[2].mcpServers.ws.type', reason: 'must be http or sse (a remote server with a url); got "websocket"' },
        { field: 'customAgents[2].mcpServers.junk', reason: 'must be an object' },
      ],
    );
  });

  it('refuses it over GraphQL with the same code and message', async () => {
    const before = cliCreates();
    const gql = graphqlHttp(() => h.app.baseUrl);
    const response = await gql('mutation ($input: CreateSessionInput) { createSession(input: $input) { sessionId } }', {
      input: { customAgents: [PWN_AGENT] },
    });
    expect(response.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('customAgents[0].mcpServers.p: an inline MCP server that runs a command is refused'),
      extensions: { code: 'endpoint_refused' },
    });
    expect(cliCreates()).toBe(before);
  });

  it('refuses remote MCP servers and webhooks the outbound guard refuses, naming each URL field', async () => {
    await expectRefused(
      {
        tools: [
          webhookTool('fine', h.webhooks.url('/fine')),
          webhookTool('meta', 'http://169.254.169.254/latest/meta-data/'),
          webhookTool('gce', 'http://metadata.google.internal./computeMetadata/v1/'),
          webhookTool('self', `http://127.0.0.1:${ownPort()}/api/sessions`),
          webhookTool('self2', `http://2130706433:${ownPort()}/api/sessions`),
        ],
        customAgents: [
          { name: 'r', prompt: 'p', mcpServers: { imds: { type: 'sse', url: 'http://[::ffff:169.254.169.254]/' }, nourl: { type: 'http' } } },
        ],
      },
      [
        { field: 'customAgents[0].mcpServers.imds.url', reason: 'the URL is refused by the outbound guard: 169.254.169.254 is a cloud metadata address' },
        { field: 'customAgents[0].mcpServers.nourl.url', reason: 'a remote MCP server needs a url string' },
        { field: 'tools[1].handler.url', reason: 'the URL is refused by the outbound guard: 169.254.169.254 is a cloud metadata address' },
        { field: 'tools[2].handler.url', reason: 'the URL is refused by the outbound guard: metadata.google.internal is a cloud metadata host' },
        { field: 'tools[3].handler.url', reason: `the URL is refused by the outbound guard: 127.0.0.1:${ownPort()} is this service's own HTTP listener` },
        { field: 'tools[4].handler.url', reason: `the URL is refused by the outbound guard: 127.0.0.1:${ownPort()} is this service's own HTTP listener` },
      ],
    );
  });

  it('accepts remote MCP servers on loopback and private addresses, and webhooks whose host does not resolve yet', async () => {
    const response = await h.http('POST', '/api/sessions', {
      tools: [webhookTool('later', 'http://not-yet-deployed.invalid/hook')],
      customAgents: [{ name: 'r', prompt: 'p', mcpServers: { gh: { type: 'http', url: 'http://127.0.0.1:1/mcp', tools: ['*'] } } }],
    });
    expect(response.status).toBe(201);
    const create = await h.fake.waitFor<Json>('session.create', (p) => p.sessionId === response.body.sessionId);
    expect(create.customAgents[0].mcpServers).toEqual({ gh: { type: 'http', url: 'http://127.0.0.1:1/mcp', tools: ['*'] } });
  });

  it('refuses a remote MCP server whose host does not resolve: the CLI, not the guard, would connect to it', async () => {
    await expectRefused({ customAgents: [{ name: 'r', prompt: 'p', mcpServers: { gh: { type: 'http', url: 'http://nowhere.invalid/mcp' } } }] }, [
      { field: 'customAgents[0].mcpServers.gh.url', reason: expect.stringContaining('nowhere.invalid does not resolve') },
    ]);
  });

  describe('after the operator changes the settings', () => {
    let inlineSession: string;
    let teamSession: string;

    it('with SWITCHBOARD_ALLOW_INLINE_MCP=true accepts an inline local server and passes it to the CLI as given', async () => {
      teamSession = await h.createTeamSession();
      await h.restartApp(security({ allowInlineMcp: true }));
      const response = await h.http('POST', '/api/sessions', { customAgents: [PWN_AGENT] });
      expect(response.status).toBe(201);
      inlineSession = response.body.sessionId;
      const create = await h.fake.waitFor<Json>('session.create', (p) => p.sessionId === inlineSession);
      expect(create.customAgents[0].mcpServers).toEqual(PWN_AGENT.mcpServers);
    });

    it('refuses to resume, without the flag, a session recorded with an inline local server', async () => {
      await h.restartApp(security({}));
      const resumesBefore = h.fake.received.filter((r) => r.method === 'session.resume').length;
      const response = await h.http('POST', `/api/sessions/${inlineSession}/resume`);
      expect(response).toMatchObject({
        status: 422,
        body: { code: 'endpoint_refused', message: expect.stringContaining('customAgents[0].mcpServers.p: ') },
      });
      expect(h.fake.received.filter((r) => r.method === 'session.resume')).toHaveLength(resumesBefore);
    });

    it('refuses at call time a webhook the narrowed SWITCHBOARD_OUTBOUND_ALLOW no longer allows: a failure the model reads, audited with the reason', async () => {
      h.fake.received.length = 0;
      await h.restartApp(security({ outboundAllow: ['10.0.0.0/8'] }));
      await h.fake.waitFor('connect', undefined, 10_000); // reconnects at start because sessions exist
      const before = h.webhooks.calls.length;
      const answered = h.fake.waitFor<Json>('session.tools.handlePendingToolCall', (p) => p.requestId === 'guarded-1', 5000);
      await h.fake.emitEvent(teamSession, {
        type: 'external_tool.requested',
        data: { requestId: 'guarded-1', toolCallId: 'g1', toolName: 'lookup', arguments: { key: 'k' } },
      });

      const text = 'Tool lookup failed: its webhook URL is refused by the outbound guard (127.0.0.1 is not in SWITCHBOARD_OUTBOUND_ALLOW).';
      expect((await answered).result).toEqual({ textResultForLlm: text, resultType: 'failure', error: text });
      expect(h.webhooks.calls).toHaveLength(before);
      const audited = await waitUntil(async () => {
        const rows = (await h.http('GET', `/api/sessions/${teamSession}/requests`)).body.requests as Json[];
        return rows.find((r) => r.kind === 'tool_call.routed' && r.arguments?.key === 'k');
      }, 'the audit row');
      expect(audited).toMatchObject({ kind: 'tool_call.routed', toolName: 'lookup', outcome: 'failure', reason: text });
    }, 20_000);
  });
});

/** Approving shell, write or url requests lets the model act on the host: the operator's call, like inline MCP. */
describe('session endpoints: permission kinds that act on the host', () => {
  let h: SessionHarness;
  beforeAll(async () => {
    h = await startSessionHarness();
  });
  afterAll(() => h.close());

  it('refuses allowKinds shell, write and url with 422 naming each entry and the operator flag; read and the rest pass', async () => {
    const creates = () => h.fake.received.filter((r) => r.method === 'session.create').length;
    const before = creates();
    const refused = await h.http('POST', '/api/sessions', { permissionPolicy: { allowKinds: ['read', 'shell', 'write', 'mcp', 'url'] } });
    expect(refused).toMatchObject({
      status: 422,
      body: {
        code: 'endpoint_refused',
        details: {
          problems: [
            { field: 'permissionPolicy.allowKinds[1]', reason: expect.stringContaining('SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true') },
            { field: 'permissionPolicy.allowKinds[2]', reason: expect.stringContaining('approving write requests') },
            { field: 'permissionPolicy.allowKinds[4]', reason: expect.stringContaining('approving url requests') },
          ],
        },
      },
    });
    expect(creates()).toBe(before);
    const accepted = await h.http('POST', '/api/sessions', { permissionPolicy: { allowKinds: ['read', 'mcp', 'memory', 'custom-tool'] } });
    expect(accepted.status).toBe(201);
  });

  it('refuses askKinds shell, write and url alike (the operator decides whether an approver may let the model act on the host); asking for read passes', async () => {
    const refused = await h.http('POST', '/api/sessions', { permissionPolicy: { askKinds: ['shell', 'read', 'url'] } });
    expect(refused).toMatchObject({
      status: 422,
      body: {
        code: 'endpoint_refused',
        details: {
          problems: [
            { field: 'permissionPolicy.askKinds[0]', reason: expect.stringContaining('SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true') },
            { field: 'permissionPolicy.askKinds[2]', reason: expect.stringContaining('asking to approve url requests lets an approver or admin') },
          ],
        },
      },
    });
    expect((await h.http('POST', '/api/sessions', { permissionPolicy: { askKinds: ['read'], askTools: ['save_result'] } })).status).toBe(201);
  });

  it('accepts them once the operator sets SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true, and refuses to resume such a session after it is unset', async () => {
    await h.restartApp(security({ allowHostPermissions: true }));
    const created = await h.http('POST', '/api/sessions', { permissionPolicy: { allowKinds: ['shell'] } });
    expect(created.status).toBe(201);
    await h.restartApp(security({}));
    const resumed = await h.http('POST', `/api/sessions/${created.body.sessionId}/resume`);
    expect(resumed).toMatchObject({
      status: 422,
      body: { code: 'endpoint_refused', message: expect.stringContaining('permissionPolicy.allowKinds[0]: ') },
    });
  });
});

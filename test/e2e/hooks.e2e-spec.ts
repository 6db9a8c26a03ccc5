import { createHmac } from 'node:crypto';
import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { sendTurn } from '../fixtures/session-turns';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';
import { WebhookRecorder } from '../fixtures/webhook-recorder';

const SECRET = 'hooks-e2e-webhook-secret';

/**
 * Hooks that can say no, through the real @github/copilot binary and the scripted model: the CLI
 * sends hooks.invoke only because the session registered a hook (session.create `hooks: true`), the
 * session's webhooks decide, and the model's next request shows what it was told.
 */
describe('hook webhooks through the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  const webhooks = new WebhookRecorder();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);

  const saveNote = () => ({
    name: 'save_note',
    description: 'Save a note',
    parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
    handler: { type: 'webhook', url: webhooks.url('/save_note') },
  });

  beforeAll(async () => {
    await model.start();
    await webhooks.start();
    webhooks.answer('/save_note', (call) => ({ body: { result: `saved:${String((call.body.arguments as Json).content)}` } }));
    webhooks.answer('/hook/deny', { body: { permissionDecision: 'deny', permissionDecisionReason: 'NOTES_ARE_FROZEN until Monday' } });
    webhooks.answer('/hook/rewrite', { body: { permissionDecision: 'allow', modifiedArgs: { content: 'REWRITTEN' } } });
    webhooks.answer('/hook/broken', { status: 500, body: { error: 'hook server exploded' } });
    webhooks.answer('/hook/observe', { body: {} });
    model.setScript([
      {
        name: 'the run calls a tool',
        lastIsToolResult: false,
        messagesInclude: 'RUN_TASK_Q',
        when: (ctx) => !ctx.allText.includes('SCENARIO_RUN'),
        answer: { toolCalls: [{ name: 'agent_output', arguments: { run_id: 'no-such-run' } }] },
      },
      {
        name: 'the run reports',
        lastIsToolResult: true,
        messagesInclude: 'RUN_TASK_Q',
        when: (ctx) => !ctx.allText.includes('SCENARIO_RUN'),
        answer: { text: 'RUN_DONE' },
      },
      {
        name: 'the lead delegates with agent_run',
        who: 'parent',
        lastIsToolResult: false,
        messagesInclude: 'SCENARIO_RUN',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'researcher', prompt: 'RUN_TASK_Q look it up' } }] },
      },
      {
        name: 'parent delegates to the scribe',
        who: 'parent',
        lastIsToolResult: false,
        messagesInclude: 'SCENARIO_CHILD',
        answer: {
          toolCalls: [{ name: 'task', arguments: { agent_type: 'scribe', name: 'scribe-1', description: 'Save', prompt: 'Save it.', mode: 'sync' } }],
        },
      },
      { name: 'child saves', who: 'child', lastIsToolResult: false, answer: { toolCalls: [{ name: 'save_note', arguments: { content: 'from-child' } }] } },
      { name: 'child reports', who: 'child', lastIsToolResult: true, answer: { text: 'CHILD_DONE' } },
      { name: 'parent saves', who: 'parent', lastIsToolResult: false, answer: { toolCalls: [{ name: 'save_note', arguments: { content: 'original' } }] } },
      { name: 'parent wraps up', who: 'parent', lastIsToolResult: true, answer: { text: 'PARENT_DONE' } },
    ]);
    running = await startRealCliApp(model, { tools: { ...testConfig('.').tools, webhookSecret: SECRET } });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    await webhooks.stop();
  });

  async function session(hooks: Json[], extra: Json = {}): Promise<string> {
    const created = await http('POST', '/api/sessions', { tools: [saveNote()], hooks, ...extra });
    expect(created.status).toBe(201);
    return created.body.sessionId as string;
  }

  async function hookAudit(sessionId: string, hookType: string): Promise<Json> {
    return waitUntil(async () => {
      const r = await http('GET', `/api/sessions/${sessionId}/requests`);
      return r.body.requests.find((x: Json) => x.kind === 'hook.invoked' && x.arguments.hookType === hookType);
    }, `the ${hookType} audit record`);
  }

  /** The tool result the model got in its request after the tool call. */
  function toolResultSeenBy(marker: string): string {
    const after = model.requests.filter((r) => r.who === 'parent' && r.lastIsToolResult && r.allText.includes(marker));
    expect(after.length).toBeGreaterThanOrEqual(1);
    return JSON.stringify(after[after.length - 1].lastMessage);
  }

  it('a pre-tool-use webhook that denies keeps the call from the tool, and the model reads the reason', async () => {
    const sessionId = await session([{ type: 'preToolUse', url: webhooks.url('/hook/deny') }]);
    const toolCallsBefore = webhooks.callsTo('/save_note').length;
    await sendTurn(http, sessionId, 'SCENARIO_DENY save a note');

    expect(webhooks.callsTo('/save_note')).toHaveLength(toolCallsBefore);
    expect(toolResultSeenBy('SCENARIO_DENY')).toContain('NOTES_ARE_FROZEN until Monday');
    const call = webhooks.callsTo('/hook/deny')[0];
    expect(call.body).toMatchObject({
      hookType: 'preToolUse',
      sessionId,
      childSessionId: null,
      input: { toolName: 'save_note', toolArgs: { content: 'original' } },
    });
    // Signed like tool webhooks: the same header, the same HMAC of the raw body.
    expect(call.headers['x-switchboard-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(call.rawBody).digest('hex')}`);
    expect(await hookAudit(sessionId, 'preToolUse')).toMatchObject({
      toolName: 'save_note',
      outcome: 'denied',
      reason: 'NOTES_ARE_FROZEN until Monday',
      result: { output: { permissionDecision: 'deny' }, handlers: [expect.objectContaining({ url: webhooks.url('/hook/deny'), outcome: 'answered' })] },
    });
  }, 90_000);

  it('a pre-tool-use webhook that rewrites the arguments: the tool receives the new ones', async () => {
    const sessionId = await session([{ type: 'preToolUse', url: webhooks.url('/hook/rewrite') }]);
    await sendTurn(http, sessionId, 'SCENARIO_REWRITE save a note');

    const toolCall = webhooks.callsTo('/save_note').find((c) => c.body.sessionId === sessionId);
    expect(toolCall?.body.arguments).toEqual({ content: 'REWRITTEN' });
    expect(toolResultSeenBy('SCENARIO_REWRITE')).toContain('saved:REWRITTEN');
    expect(await hookAudit(sessionId, 'preToolUse')).toMatchObject({
      outcome: 'modified',
      result: { output: { modifiedArgs: { content: 'REWRITTEN' } } },
    });
  }, 90_000);

  it('a pre-tool-use webhook that fails stops the call (closed by default), saying why', async () => {
    const sessionId = await session([{ type: 'preToolUse', url: webhooks.url('/hook/broken') }]);
    await sendTurn(http, sessionId, 'SCENARIO_CLOSED save a note');

    expect(webhooks.callsTo('/save_note').some((c) => c.body.sessionId === sessionId)).toBe(false);
    expect(toolResultSeenBy('SCENARIO_CLOSED')).toContain('fails closed');
    expect(await hookAudit(sessionId, 'preToolUse')).toMatchObject({
      outcome: 'failed_closed',
      reason: expect.stringContaining('answered HTTP 500'),
      result: { handlers: [expect.objectContaining({ outcome: 'failed', failure: 'closed', error: 'answered HTTP 500' })] },
    });
  }, 90_000);

  it('a post-tool-use webhook that fails lets the call through (open by default)', async () => {
    const sessionId = await session([{ type: 'postToolUse', url: webhooks.url('/hook/broken') }]);
    await sendTurn(http, sessionId, 'SCENARIO_OPEN save a note');

    expect(webhooks.callsTo('/save_note').find((c) => c.body.sessionId === sessionId)?.body.arguments).toEqual({ content: 'original' });
    expect(toolResultSeenBy('SCENARIO_OPEN')).toContain('saved:original');
    expect(await hookAudit(sessionId, 'postToolUse')).toMatchObject({
      toolName: 'save_note',
      outcome: 'failed_open',
      result: { handlers: [expect.objectContaining({ outcome: 'failed', failure: 'open' })] },
    });
  }, 90_000);

  it("a sub-agent's tool call goes to the parent session's hook and is audited with the sub-agent", async () => {
    const sessionId = await session([{ type: 'preToolUse', url: webhooks.url('/hook/observe') }], {
      customAgents: [{ name: 'scribe', description: 'Saves notes with save_note', prompt: 'You save notes.', tools: ['save_note'], infer: true }],
    });
    await sendTurn(http, sessionId, 'SCENARIO_CHILD ask the scribe');

    const childCall = webhooks.callsTo('/hook/observe').find((c) => c.body.sessionId === sessionId && (c.body.input as Json).toolName === 'save_note');
    expect(childCall?.body).toMatchObject({ hookType: 'preToolUse', agentName: 'scribe', input: { toolArgs: { content: 'from-child' } } });
    const childSessionId = childCall?.body.childSessionId as string;
    expect(childSessionId).toEqual(expect.any(String));
    const subagents = (await http('GET', `/api/sessions/${sessionId}`)).body.subAgentLaunches as Json[];
    expect(subagents.map((s) => s.childSessionId)).toContain(childSessionId);

    const audit = await waitUntil(async () => {
      const r = await http('GET', `/api/sessions/${sessionId}/requests`);
      return r.body.requests.find((x: Json) => x.kind === 'hook.invoked' && x.toolName === 'save_note' && x.arguments.hookType === 'preToolUse');
    }, "the child's preToolUse audit record");
    expect(audit).toMatchObject({ childSessionId, agentName: 'scribe', outcome: 'continued' });
    // The task call of the parent itself went through the same hook, as the parent's.
    expect(
      webhooks
        .callsTo('/hook/observe')
        .some((c) => c.body.sessionId === sessionId && (c.body.input as Json).toolName === 'task' && c.body.childSessionId === null),
    ).toBe(true);
  }, 120_000);

  it('refuses a hook webhook on a metadata address at registration (422), for a session and for a library agent', async () => {
    const refused = await http('POST', '/api/sessions', { hooks: [{ type: 'preToolUse', url: 'http://169.254.169.254/latest/meta-data' }] });
    expect(refused.status).toBe(422);
    expect(refused.body.details.problems).toEqual([expect.objectContaining({ field: 'hooks[0].url' })]);

    const agent = await http('POST', '/api/agents', {
      name: 'Hooked',
      hooks: [{ type: 'postToolUse', url: 'http://169.254.169.254/' }],
    });
    expect(agent.status).toBe(422);
    expect(agent.body.details.problems).toEqual([expect.objectContaining({ field: 'hooks[0].url' })]);
  });

  it("a library agent's hooks apply to the sessions it is the main agent of", async () => {
    const agent = await http('POST', '/api/agents', {
      id: 'frozen-notes',
      name: 'Frozen notes',
      hooks: [{ type: 'preToolUse', url: webhooks.url('/hook/deny') }],
    });
    expect(agent.status).toBe(201);
    expect(agent.body.hooks).toEqual([{ type: 'preToolUse', url: webhooks.url('/hook/deny') }]);
    const sessionId = await session([], { agentId: 'frozen-notes' });
    await sendTurn(http, sessionId, 'SCENARIO_AGENT save a note');

    expect(webhooks.callsTo('/save_note').some((c) => c.body.sessionId === sessionId)).toBe(false);
    expect(toolResultSeenBy('SCENARIO_AGENT')).toContain('NOTES_ARE_FROZEN');
    expect(await hookAudit(sessionId, 'preToolUse')).toMatchObject({ outcome: 'denied' });
  }, 90_000);

  it('GraphQL: an agent keeps its hooks through createAgent, and createSession refuses a metadata hook URL', async () => {
    const gql = graphqlHttp(() => running.app.baseUrl);
    const agent = await gql('mutation ($input: CreateAgentInput!) { createAgent(input: $input) { id hooks { type url failure } } }', {
      input: { id: 'gql-hooked', name: 'GQL hooked', hooks: [{ type: 'postToolUse', url: webhooks.url('/hook/observe'), failure: 'closed' }] },
    });
    expect(agent.body.errors).toBeUndefined();
    expect(agent.body.data.createAgent.hooks).toEqual([{ type: 'postToolUse', url: webhooks.url('/hook/observe'), failure: 'closed' }]);

    const refused = await gql('mutation ($input: CreateSessionInput) { createSession(input: $input) { sessionId } }', {
      input: { hooks: [{ type: 'preToolUse', url: 'http://169.254.169.254/' }] },
    });
    expect(refused.body.errors?.[0].extensions?.code).toBe('endpoint_refused');
    expect(refused.body.errors?.[0].message).toContain('hooks[0].url');
  });

  it("a run started with agent_run inherits its owner's hooks; its calls are sent and audited with the run's lineage", async () => {
    expect((await http('POST', '/api/agents', { id: 'researcher', name: 'Researcher' })).status).toBe(201);
    const sessionId = await session([{ type: 'preToolUse', url: webhooks.url('/hook/observe') }], { delegation: true });
    await sendTurn(http, sessionId, 'SCENARIO_RUN delegate it');

    const runs = (await http('GET', '/api/runs?agentId=researcher')).body;
    const run = (runs.runs as Json[]).find((r) => r.agentId === 'researcher');
    const runId = run.runId as string;
    const thread = `sub-agent-${runId}`;
    const fromRun = webhooks.callsTo('/hook/observe').find((c) => c.body.sessionId === thread && (c.body.input as Json).toolName === 'agent_output');
    expect(fromRun?.body).toMatchObject({
      hookType: 'preToolUse',
      lineage: { runId, agentId: 'researcher', rootRunId: runId, parentRunId: null, path: `/${runId}/` },
    });
    const audit = await waitUntil(async () => {
      const r = await http('GET', `/api/sessions/${thread}/requests`);
      return r.body.requests?.find((x: Json) => x.kind === 'hook.invoked' && x.toolName === 'agent_output');
    }, "the run's hook audit record");
    expect(audit.arguments.lineage).toMatchObject({ runId, rootRunId: runId, path: `/${runId}/` });
  }, 120_000);
});

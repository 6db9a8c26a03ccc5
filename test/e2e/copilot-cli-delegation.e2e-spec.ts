import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { SseClient } from '../fixtures/sse-client';
import { waitUntil } from '../fixtures/wait-until';
import { WebhookRecorder } from '../fixtures/webhook-recorder';

/**
 * The real @github/copilot binary over stdio, driven by the scripted model on 127.0.0.1: the main
 * agent delegates with the built-in `task` tool to a custom agent, which calls a webhook tool of
 * the parent session. Only the model's answers are scripted; everything else is the real thing.
 */
describe('delegation through the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  const webhooks = new WebhookRecorder();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);

  beforeAll(async () => {
    await model.start();
    await webhooks.start();
    webhooks.answer('/lookup_secret', (call) => ({ body: { result: `secret(${String((call.body.arguments as Json).key)})=42` } }));
    model.setScript([
      {
        name: 'parent delegates',
        who: 'parent',
        lastIsToolResult: false,
        answer: {
          toolCalls: [
            {
              name: 'task',
              arguments: {
                agent_type: 'secret-keeper',
                name: 'keeper-1',
                description: 'Look up the secret',
                prompt: 'Look up key alpha and report it.',
                mode: 'sync',
              },
            },
          ],
        },
      },
      { name: 'child looks up', who: 'child', lastIsToolResult: false, answer: { toolCalls: [{ name: 'lookup_secret', arguments: { key: 'alpha' } }] } },
      {
        name: 'child tries a tool outside its allowlist',
        who: 'child',
        lastIsToolResult: true,
        times: 1,
        answer: { toolCalls: [{ name: 'forbidden_tool', arguments: {} }] },
      },
      { name: 'child reports', who: 'child', lastIsToolResult: true, answer: { text: 'CHILD_DONE: secret(alpha)=42' } },
      { name: 'parent wraps up', who: 'parent', lastIsToolResult: true, answer: { text: 'PARENT_DONE' } },
    ]);
    running = await startRealCliApp(model);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    await webhooks.stop();
  });

  it('records the delegation, routes the child tool call to the parent webhook, and keeps the denied tool away from its handler', async () => {
    const created = await http('POST', '/api/sessions', {
      tools: [
        {
          name: 'lookup_secret',
          description: 'Look up a secret value by key',
          parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
          handler: { type: 'webhook', url: webhooks.url('/lookup_secret') },
        },
        {
          name: 'forbidden_tool',
          description: 'Must never be called by the keeper',
          parameters: { type: 'object', properties: {} },
          handler: { type: 'webhook', url: webhooks.url('/forbidden') },
        },
      ],
      customAgents: [
        {
          name: 'secret-keeper',
          displayName: 'Secret Keeper',
          description: 'Looks up secrets with lookup_secret',
          prompt: 'You are the secret keeper. Use lookup_secret.',
          tools: ['lookup_secret'],
          infer: true,
        },
      ],
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    expect(created.body.protocolVersion).toBe(3);

    const sse = await new SseClient().open(`${running.app.baseUrl}/api/sessions/${sessionId}/events`);
    try {
      expect(sse.status).toBe(200);
      expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'Please ask the secret keeper for the alpha secret.' })).status).toBe(
        202,
      );
      await sse.waitFor((e) => e.event === 'cli.session.idle' && !e.data.data.agentId, 'the parent turn to end', 60_000);

      const started = await sse.waitFor((e) => e.event === 'subagent.started', 'subagent.started');
      expect(started.data.data).toMatchObject({ parentSessionId: sessionId, agentName: 'secret-keeper', via: 'agentId' });
      const childId = started.data.data.childSessionId as string;
      await sse.waitFor((e) => e.event === 'subagent.completed' && e.data.data.childSessionId === childId, 'subagent.completed');
      const finalMessage = sse.events.find(
        (e) => e.event === 'cli.assistant.message' && !e.data.data.agentId && String(e.data.data.payload.content).includes('PARENT_DONE'),
      );
      expect(finalMessage).toBeDefined();
      // SSE ids are stream positions, strictly increasing: a reconnect with Last-Event-ID resumes exactly.
      const ids = sse.events.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);

      const lookups = webhooks.callsTo('/lookup_secret');
      expect(lookups).toHaveLength(1);
      expect(lookups[0].body).toMatchObject({
        sessionId,
        childSessionId: childId,
        agentName: 'secret-keeper',
        toolName: 'lookup_secret',
        arguments: { key: 'alpha' },
      });
      expect(webhooks.callsTo('/forbidden')).toHaveLength(0);
      // The CLI itself refused the child's call outside its allowlist: nothing reached Switchboard for it.
      const refused = sse.events.find(
        (e) => e.event === 'cli.tool.execution_complete' && e.data.data.agentId === childId && e.data.data.payload.success === false,
      );
      expect(refused?.data.data.payload.error.message).toContain('forbidden_tool');

      const audit = await waitUntil(async () => {
        const r = await http('GET', `/api/sessions/${sessionId}/requests`);
        return r.body.requests.some((x: Json) => x.kind === 'tool_call.routed') ? r.body.requests : undefined;
      }, 'the audit');
      expect(audit.find((x: Json) => x.kind === 'permission.decided')).toMatchObject({
        childSessionId: childId,
        agentName: 'secret-keeper',
        toolName: 'lookup_secret',
        outcome: 'approved',
      });
      expect(audit.find((x: Json) => x.kind === 'tool_call.routed')).toMatchObject({
        childSessionId: childId,
        agentName: 'secret-keeper',
        toolName: 'lookup_secret',
        result: 'secret(alpha)=42',
        outcome: 'success',
      });
      expect(audit.filter((x: Json) => x.toolName === 'forbidden_tool' && x.outcome !== 'denied')).toHaveLength(0);

      // What the model saw: the keeper was offered only its allowlisted tool (tool advertisement).
      const childTurns = model.requests.filter((r) => r.who === 'child');
      expect(childTurns.length).toBeGreaterThanOrEqual(2);
      expect(childTurns[0].toolNames).toEqual(['lookup_secret']);

      const session = await http('GET', `/api/sessions/${sessionId}`);
      expect(session.body).toMatchObject({ status: 'idle', protocolVersion: 3 });
      expect(session.body.subAgentLaunches).toEqual([
        expect.objectContaining({ agentName: 'secret-keeper', childSessionId: childId, status: 'completed' }),
      ]);
    } finally {
      await sse.close();
    }
    expect((await http('DELETE', `/api/sessions/${sessionId}`)).body.status).toBe('destroyed');
  }, 120_000);
});

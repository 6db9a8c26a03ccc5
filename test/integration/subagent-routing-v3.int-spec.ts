import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { SseClient } from '../fixtures/sse-client';
import { waitUntil } from '../fixtures/wait-until';

const NOT_SUPPORTED = (tool: string) => `Tool '${tool}' is not supported by this client instance.`;

/** Protocol 3 (the real CLI of today): everything a sub-agent does arrives on the parent's event stream. */
describe('child-session routing, protocol 3 (fake CLI over TCP, real app, real SQLite)', () => {
  let h: SessionHarness;
  let sessionId: string;

  beforeAll(async () => {
    h = await startSessionHarness({ protocolVersion: 3 });
    sessionId = await h.createTeamSession();
  });
  afterAll(() => h.close());

  const pendingToolAnswer = (requestId: string) => h.fake.waitFor<Json>('session.tools.handlePendingToolCall', (p) => p.requestId === requestId, 5000);
  const pendingPermissionAnswer = (requestId: string) =>
    h.fake.waitFor<Json>('session.permissions.handlePendingPermissionRequest', (p) => p.requestId === requestId, 5000);

  it('creates the CLI session with tools, the provider, and toolDefinitions only for agents with an allowlist', async () => {
    const create = await h.fake.waitFor<Json>('session.create', (p) => p.sessionId === sessionId);
    expect(create.provider).toEqual({ type: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'test' });
    expect(create.tools.map((t: Json) => t.name)).toEqual(['lookup', 'secret']);
    const [keeper, free] = create.customAgents;
    expect(keeper).toMatchObject({
      name: 'keeper',
      tools: ['lookup'],
      toolDefinitions: [{ name: 'lookup', description: 'Look up a value', parameters: { type: 'object', properties: { key: { type: 'string' } } } }],
    });
    expect(free.name).toBe('free');
    expect(free).not.toHaveProperty('toolDefinitions');
    expect(free).not.toHaveProperty('tools');
  });

  it("routes a sub-agent's tool call to the parent's webhook and answers through handlePendingToolCall", async () => {
    await h.fake.emitEvent(sessionId, {
      type: 'subagent.started',
      agentId: 'task-1',
      data: { toolCallId: 'call_task_1', agentName: 'keeper', agentDisplayName: 'Keeper' },
    });
    const answered = pendingToolAnswer('r1');
    await h.fake.emitEvent(sessionId, {
      type: 'external_tool.requested',
      agentId: 'task-1',
      data: { sessionId, requestId: 'r1', toolCallId: 'call_lookup_1', toolName: 'lookup', arguments: { key: 'alpha' }, ownerNativeSessionId: 'native-1' },
    });
    expect((await answered).result).toMatchObject({ textResultForLlm: 'ok:lookup', resultType: 'success' });
    const call = h.webhooks.callsTo('/lookup').at(-1)!;
    expect(call.body).toEqual({
      sessionId,
      childSessionId: 'task-1',
      agentName: 'keeper',
      toolCallId: 'call_lookup_1',
      toolName: 'lookup',
      arguments: { key: 'alpha' },
    });
  });

  it('denies a tool outside the allowlist with the exact text, without calling its handler', async () => {
    const before = h.webhooks.callsTo('/secret').length;
    const answered = pendingToolAnswer('r2');
    await h.fake.emitEvent(sessionId, {
      type: 'external_tool.requested',
      agentId: 'task-1',
      data: { sessionId, requestId: 'r2', toolCallId: 'call_secret_1', toolName: 'secret', arguments: {}, ownerNativeSessionId: 'native-1' },
    });
    expect((await answered).result).toEqual({ textResultForLlm: NOT_SUPPORTED('secret'), resultType: 'failure', error: "tool 'secret' not supported" });
    expect(h.webhooks.callsTo('/secret')).toHaveLength(before);
  });

  it('lets an agent without an allowlist use every session tool, and the main agent too', async () => {
    await h.fake.emitEvent(sessionId, { type: 'subagent.started', agentId: 'task-2', data: { toolCallId: 'call_task_2', agentName: 'free' } });
    const byChild = pendingToolAnswer('r3');
    await h.fake.emitEvent(sessionId, {
      type: 'external_tool.requested',
      agentId: 'task-2',
      data: { requestId: 'r3', toolCallId: 'c3', toolName: 'secret', arguments: {} },
    });
    expect((await byChild).result.textResultForLlm).toBe('ok:secret');
    const byMain = pendingToolAnswer('r4');
    await h.fake.emitEvent(sessionId, { type: 'external_tool.requested', data: { requestId: 'r4', toolCallId: 'c4', toolName: 'secret', arguments: {} } });
    expect((await byMain).result.textResultForLlm).toBe('ok:secret');
    expect(h.webhooks.callsTo('/secret').at(-1)!.body).toMatchObject({ childSessionId: null, agentName: null });
  });

  // spec: the allowlist does not apply to permission.request; the call after it gets the exact refusal (test above).
  it('answers permissions by policy: own tools approved (inside the allowlist or not), shell and unknown tools rejected', async () => {
    const cases = [
      { requestId: 'p1', permissionRequest: { kind: 'custom-tool', toolName: 'lookup' }, expected: { kind: 'approve-once' } },
      { requestId: 'p2', permissionRequest: { kind: 'custom-tool', toolName: 'secret' }, expected: { kind: 'approve-once' } },
      { requestId: 'p4', permissionRequest: { kind: 'custom-tool', toolName: 'not_a_session_tool' }, expected: { kind: 'reject' } },
      { requestId: 'p3', permissionRequest: { kind: 'shell', fullCommandText: 'rm -rf /' }, expected: { kind: 'reject' } },
    ];
    for (const c of cases) {
      const answered = pendingPermissionAnswer(c.requestId);
      await h.fake.emitEvent(sessionId, {
        type: 'permission.requested',
        agentId: 'task-1',
        data: { requestId: c.requestId, permissionRequest: c.permissionRequest, ownerSessionId: 'native-1' },
      });
      expect((await answered).result).toMatchObject(c.expected);
    }
  });

  it('keeps the mappings after subagent.completed: a late request still resolves', async () => {
    await h.fake.emitEvent(sessionId, {
      type: 'subagent.completed',
      agentId: 'task-1',
      data: { toolCallId: 'call_task_1', agentName: 'keeper', totalTokens: 30, totalToolCalls: 1, durationMs: 57 },
    });
    const session = await waitUntil(async () => {
      const r = await h.http('GET', `/api/sessions/${sessionId}`);
      return r.body.subAgentLaunches.find((s: Json) => s.toolCallId === 'call_task_1' && s.status === 'completed') ? r.body : undefined;
    }, 'the instance to complete');
    expect(session.subAgentLaunches.find((s: Json) => s.toolCallId === 'call_task_1')).toMatchObject({
      agentName: 'keeper',
      childSessionId: 'task-1',
      totalTokens: 30,
    });
    const late = pendingToolAnswer('r5');
    await h.fake.emitEvent(sessionId, {
      type: 'external_tool.requested',
      agentId: 'task-1',
      data: { requestId: 'r5', toolCallId: 'c5', toolName: 'lookup', arguments: { key: 'late' } },
    });
    expect((await late).result.textResultForLlm).toBe('ok:lookup');
  });

  it('answers a request of a sub-agent it never saw start with "unknown session"', async () => {
    const answered = pendingToolAnswer('r6');
    await h.fake.emitEvent(sessionId, {
      type: 'external_tool.requested',
      agentId: 'task-ghost',
      data: { requestId: 'r6', toolCallId: 'c6', toolName: 'lookup', arguments: {} },
    });
    expect(await answered).toMatchObject({ error: 'unknown session task-ghost' });
  });

  it('audits every routed request with parent, child, agent, tool, arguments, result and latency', async () => {
    const audit = await waitUntil(async () => {
      const r = await h.http('GET', `/api/sessions/${sessionId}/requests`);
      return r.body.requests.length >= 8 ? r.body.requests : undefined;
    }, 'the audit rows');
    const denied = audit.find((r: Json) => r.kind === 'tool_call.denied');
    expect(denied).toMatchObject({
      parentSessionId: sessionId,
      childSessionId: 'task-1',
      agentName: 'keeper',
      toolName: 'secret',
      outcome: 'denied',
      result: NOT_SUPPORTED('secret'),
    });
    const routed = audit.find((r: Json) => r.kind === 'tool_call.routed');
    expect(routed).toMatchObject({
      childSessionId: 'task-1',
      agentName: 'keeper',
      toolName: 'lookup',
      arguments: { key: 'alpha' },
      result: 'ok:lookup',
      outcome: 'success',
    });
    expect(typeof routed.latencyMs).toBe('number');
    const shell = audit.find((r: Json) => r.kind === 'permission.decided' && r.arguments.kind === 'shell');
    expect(shell).toMatchObject({ outcome: 'denied', reason: expect.stringContaining('shell access is not allowed') });
  });

  it('records the sub-agent lineage and the raw CLI events in the session stream', async () => {
    const events = await h.http('GET', `/api/streams/session-${sessionId}/events?limit=1000`);
    const types = events.body.events.map((e: Json) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'session.created',
        'session.started',
        'subagent.started',
        'subagent.completed',
        'child_session.mapped',
        'cli.subagent.started',
      ]),
    );
    const mapped = events.body.events.find((e: Json) => e.type === 'child_session.mapped');
    expect(mapped.data).toMatchObject({ childSessionId: 'native-1', agentName: 'keeper', via: 'ownerNativeSessionId' });
  });
  it('streams the session as Server-Sent Events: replay from ?after= or Last-Event-ID, then live, each event once', async () => {
    const all = (await h.http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
    const from = all.length - 3;
    const replay = await new SseClient().open(`${h.app.baseUrl}/api/sessions/${sessionId}/events?after=${from}`);
    const resumed = await new SseClient().open(`${h.app.baseUrl}/api/sessions/${sessionId}/events`, { 'last-event-id': String(all.length - 1) });
    try {
      await replay.waitFor((e) => Number(e.id) === all.length, 'the replayed tail');
      expect(replay.events.map((e) => Number(e.id))).toEqual([from + 1, from + 2, from + 3]);
      expect(replay.events[0].event).toBe(all[from].type);
      await h.fake.emitEvent(sessionId, { type: 'assistant.message', data: { content: 'live one' } });
      const live = await replay.waitFor((e) => e.event === 'cli.assistant.message' && e.data.data.payload.content === 'live one', 'the live event');
      expect(Number(live.id)).toBe(all.length + 1);
      await resumed.waitFor((e) => Number(e.id) === all.length + 1, 'the live event after Last-Event-ID');
      expect(resumed.events.map((e) => Number(e.id))).toEqual([all.length, all.length + 1]);
      expect(new Set(replay.events.map((e) => e.id)).size).toBe(replay.events.length);
    } finally {
      await replay.close();
      await resumed.close();
    }
    const missing = await new SseClient().open(`${h.app.baseUrl}/api/sessions/nope/events`);
    expect(missing.status).toBe(404);
    await missing.close();
  });
});

import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { waitUntil } from '../fixtures/wait-until';

const NOT_SUPPORTED = (tool: string) => `Tool '${tool}' is not supported by this client instance.`;

/** Protocol 2 (the spec's picture): the CLI sends requests keyed by the CHILD's session id. */
describe('child-session routing, protocol 2 (fake CLI over TCP, real app, real SQLite)', () => {
  let h: SessionHarness;
  let tests = 0;
  // Each test gets its own two parents and children (fresh ids), so none sees what another did:
  // the destroy test ends its own `other`, and webhook calls and questions are told apart by id.
  let parent: string;
  let other: string;
  let child: string;
  let otherChild: string;

  beforeAll(async () => {
    h = await startSessionHarness({ protocolVersion: 2 });
  });
  afterAll(() => h.close());

  beforeEach(async () => {
    tests += 1;
    child = `child-${tests}-1`;
    otherChild = `child-${tests}-2`;
    parent = await h.createTeamSession();
    other = await h.createTeamSession({
      tools: [{ name: 'other_tool', description: 'Only on the other session', handler: { type: 'webhook', url: h.webhooks.url('/other') } }],
      customAgents: [{ name: 'keeper', description: 'x', prompt: 'y' }],
    });
    await h.fake.emitEvent(parent, {
      type: 'subagent.started',
      data: { remoteSessionId: child, toolCallId: 'call_1', agentName: 'keeper', agentDisplayName: 'Keeper' },
    });
    await h.fake.emitEvent(other, { type: 'subagent.started', data: { remoteSessionId: otherChild, toolCallId: 'call_2', agentName: 'keeper' } });
    for (const id of [parent, other]) {
      await waitUntil(async () => (await h.http('GET', `/api/sessions/${id}`)).body.subAgentLaunches.length === 1, `the child mapping of ${id}`);
    }
  });

  it('speaks protocol 2 after connect answered MethodNotFound', async () => {
    await h.fake.waitFor('ping');
    const session = await h.http('GET', `/api/sessions/${parent}`);
    expect(session.body.protocolVersion).toBe(2);
  });

  it("dispatches a child's tool.call to the parent's handler", async () => {
    const answer = await h.fake.request<Json>('tool.call', { sessionId: child, toolCallId: 't1', toolName: 'lookup', arguments: { key: 'k' } });
    expect(answer).toEqual({ result: { textResultForLlm: 'ok:lookup', resultType: 'success' } });
    const calls = h.webhooks.callsTo('/lookup').filter((c) => c.body.sessionId === parent);
    expect(calls.map((c) => c.body)).toEqual([expect.objectContaining({ sessionId: parent, childSessionId: child, agentName: 'keeper' })]);
  });

  it('denies a tool outside the allowlist with the exact text, never "unknown session"', async () => {
    const answer = await h.fake.request<Json>('tool.call', { sessionId: child, toolCallId: 't2', toolName: 'secret', arguments: {} });
    expect(answer.result).toMatchObject({ textResultForLlm: NOT_SUPPORTED('secret'), resultType: 'failure' });
    expect(h.webhooks.callsTo('/secret').filter((c) => c.body.sessionId === parent)).toHaveLength(0);
  });

  it('keeps two parents apart: a child reaches only its own parent and its tools', async () => {
    const own = await h.fake.request<Json>('tool.call', { sessionId: otherChild, toolCallId: 't3', toolName: 'other_tool', arguments: {} });
    expect(own.result.textResultForLlm).toBe('ok:other_tool');
    const foreign = await h.fake.request<Json>('tool.call', { sessionId: otherChild, toolCallId: 't4', toolName: 'lookup', arguments: {} });
    expect(foreign.result.textResultForLlm).toBe(NOT_SUPPORTED('lookup'));
    expect(h.webhooks.callsTo('/lookup').filter((c) => c.body.childSessionId === otherChild)).toHaveLength(0);
  });

  it('answers an unknown session id with the exact error text', async () => {
    await expect(h.fake.request('tool.call', { sessionId: 'nobody', toolCallId: 't', toolName: 'lookup', arguments: {} })).rejects.toMatchObject({
      message: 'unknown session nobody',
    });
    await expect(h.fake.request('permission.request', { sessionId: 'nobody', permissionRequest: { kind: 'shell' } })).rejects.toMatchObject({
      message: 'unknown session nobody',
    });
  });

  it('resolves permission.request, hooks.invoke and userInput.request of a child without the allowlist check', async () => {
    expect(await h.fake.request('permission.request', { sessionId: child, permissionRequest: { kind: 'custom-tool', toolName: 'lookup' } })).toEqual({
      result: { kind: 'approved' },
    });
    expect(await h.fake.request('permission.request', { sessionId: child, permissionRequest: { kind: 'write', fileName: '/etc/passwd' } })).toEqual({
      result: { kind: 'denied-by-rules' },
    });
    expect(await h.fake.request('hooks.invoke', { sessionId: child, hookType: 'preToolUse', input: { toolName: 'secret' } })).toEqual({});

    const answered = h.fake.request<Json>('userInput.request', {
      sessionId: child,
      question: 'Which colour?',
      choices: ['red', 'blue'],
      allowFreeform: false,
    });
    const pending = await waitUntil(async () => (await h.http('GET', `/api/sessions/${parent}/user-input`)).body.pending[0], 'the pending question');
    expect(pending).toMatchObject({ sessionId: parent, childSessionId: child, agentName: 'keeper', question: 'Which colour?', choices: ['red', 'blue'] });
    const reply = await h.http('POST', `/api/sessions/${parent}/user-input/${pending.requestId}`, { answer: 'blue', wasFreeform: false });
    expect(reply.status).toBe(200);
    expect(await answered).toEqual({ answer: 'blue', wasFreeform: false });
    expect((await h.http('POST', `/api/sessions/${parent}/user-input/${pending.requestId}`, { answer: 'again' })).status).toBe(404);
  });

  it('answers a child of a destroyed parent with "unknown session" (cleanup contract)', async () => {
    const destroyed = await h.http('DELETE', `/api/sessions/${other}`);
    expect(destroyed).toMatchObject({ status: 200, body: { status: 'destroyed' } });
    expect(await h.fake.waitFor<Json>('session.destroy', (p) => p.sessionId === other)).toBeDefined();
    await expect(h.fake.request('tool.call', { sessionId: otherChild, toolCallId: 't', toolName: 'other_tool', arguments: {} })).rejects.toMatchObject({
      message: `unknown session ${otherChild}`,
    });
    // It still exists (GET answers it), so a message is refused for its status, not as unknown (issue 10).
    expect(await h.http('POST', `/api/sessions/${other}/messages`, { prompt: 'hi' })).toMatchObject({
      status: 409,
      body: { code: 'invalid_state', details: { status: 'destroyed' } },
    });
  });

  it('rejects malformed requests from the CLI with a JSON-RPC error, and keeps serving', async () => {
    await expect(h.fake.request('tool.call', [1, 2, 3])).rejects.toMatchObject({ code: expect.any(Number) });
    await expect(h.fake.request('tool.call', { sessionId: 42 })).rejects.toMatchObject({ message: 'sessionId must be a non-empty string' });
    await expect(h.fake.request('no.such.method', {})).rejects.toMatchObject({ code: -32601 });
    const answer = await h.fake.request<Json>('tool.call', { sessionId: child, toolCallId: 't9', toolName: 'lookup', arguments: {} });
    expect(answer.result.resultType).toBe('success');
  });
});

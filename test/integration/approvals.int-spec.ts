import { appStoreTargets } from '../fixtures/app-store-targets';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { waitUntil } from '../fixtures/wait-until';

/**
 * issue 14, approvals through the fake CLI (protocol 3 broadcasts and protocol 2 requests), the real
 * app and a real SQLite file: what the real CLI cannot be made to do on demand (a timeout, a restart
 * or a destroy while a request waits), and the API's 404 / 409 / paging / session scope. What a
 * restart keeps (a pending request, a session-scope approval) runs on PostgreSQL too.
 */
describe.each(appStoreTargets())('approvals (fake CLI, protocol 3, %s)', (_name, store) => {
  let h: SessionHarness;
  let sessionId: string;

  beforeAll(async () => {
    h = await startSessionHarness({ protocolVersion: 3, config: { approvals: { timeoutMs: 60_000 } }, store });
    sessionId = await h.createTeamSession({ permissionPolicy: { askTools: ['secret', 'lookup'] } });
    await h.fake.emitEvent(sessionId, { type: 'subagent.started', agentId: 'task-1', data: { toolCallId: 'call_task_1', agentName: 'free' } });
  });
  afterAll(() => h.close());

  const answerOf = (requestId: string, timeoutMs = 5000) =>
    h.fake.waitFor<Json>('session.permissions.handlePendingPermissionRequest', (p) => p.requestId === requestId, timeoutMs);
  const answered = (requestId: string) =>
    h.fake.received.some((r) => r.method === 'session.permissions.handlePendingPermissionRequest' && (r.params as Json).requestId === requestId);
  const ask = (session: string, requestId: string, toolName: string) =>
    h.fake.emitEvent(session, {
      type: 'permission.requested',
      agentId: 'task-1',
      data: { requestId, permissionRequest: { kind: 'custom-tool', toolName, args: { key: requestId } }, ownerSessionId: 'native-1' },
    });
  const pendingFor = (requestId: string) =>
    waitUntil(async () => {
      const r = await h.http('GET', `/api/approvals?status=pending&sessionId=${sessionId}`);
      return r.body.approvals.find((a: Json) => a.arguments?.args?.key === requestId);
    }, `the approval of ${requestId}`);

  it('holds an asked request until it is approved over REST; the CLI then gets approve-once', async () => {
    await ask(sessionId, 'q1', 'secret');
    const item = await pendingFor('q1');
    expect(item).toMatchObject({
      status: 'pending',
      kind: 'custom-tool',
      toolName: 'secret',
      sessionId: sessionId,
      childSessionId: 'task-1',
      agentName: 'free',
      runId: null,
      rootRunId: null,
      lineagePath: ['main', 'free'],
      decidedAt: null,
      decision: null,
    });
    expect(answered('q1')).toBe(false);

    const decided = await h.http('POST', `/api/approvals/${item.id}`, { decision: 'approve', reason: 'looks fine' });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ id: item.id, status: 'decided', decision: 'approve', scope: 'once', decidedBy: 'api', reason: 'looks fine' });
    expect((await answerOf('q1')).result).toEqual({ kind: 'approve-once' });

    const again = await h.http('POST', `/api/approvals/${item.id}`, { decision: 'deny' });
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'approval_settled', message: expect.stringContaining('already decided'), details: { status: 'decided' } },
    });
    const audit = await waitUntil(async () => {
      const r = await h.http('GET', `/api/sessions/${sessionId}/requests`);
      return r.body.requests.find((x: Json) => x.kind === 'permission.decided' && x.arguments?.args?.key === 'q1');
    }, 'the audit of q1');
    expect(audit).toMatchObject({ outcome: 'approved', reason: 'approved by api: looks fine' });
  });

  it('denies with the reason the model reads (the CLI gets reject with it as feedback)', async () => {
    await ask(sessionId, 'q2', 'secret');
    const item = await pendingFor('q2');
    expect((await h.http('POST', `/api/approvals/${item.id}`, { decision: 'deny', reason: 'not on a Friday' })).status).toBe(200);
    expect((await answerOf('q2')).result).toEqual({ kind: 'reject', feedback: 'denied by api: not on a Friday' });
  });

  it('answers 404 for an unknown approval and 400 for a bad decision', async () => {
    expect(await h.http('POST', '/api/approvals/nope', { decision: 'approve' })).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await h.http('POST', '/api/approvals/nope', { decision: 'maybe' })).status).toBe(400);
    expect((await h.http('GET', '/api/approvals?status=waiting')).status).toBe(400);
    expect((await h.http('GET', '/api/approvals?after=bm90LWEtY3Vyc29y')).status).toBe(400);
  });

  it('scope session approves that tool for the rest of the session, after a restart too; other tools still ask', async () => {
    await ask(sessionId, 'q3', 'lookup');
    const item = await pendingFor('q3');
    expect((await h.http('POST', `/api/approvals/${item.id}`, { decision: 'approve', scope: 'session' })).body).toMatchObject({ scope: 'session' });
    expect((await answerOf('q3')).result).toEqual({ kind: 'approve-once' });

    await ask(sessionId, 'q4', 'lookup');
    expect((await answerOf('q4')).result).toEqual({ kind: 'approve-once' });

    await h.restartApp({ approvals: { timeoutMs: 60_000 } });
    await h.http('POST', `/api/sessions/${sessionId}/resume`);
    await ask(sessionId, 'q5', 'lookup');
    expect((await answerOf('q5')).result).toEqual({ kind: 'approve-once' });
    // Only q3 was ever asked for lookup: q4 and q5 were answered by the session grant.
    const lookups = await h.http('GET', `/api/approvals?sessionId=${sessionId}`);
    expect(lookups.body.approvals.filter((a: Json) => a.toolName === 'lookup').map((a: Json) => a.arguments.args.key)).toEqual(['q3']);

    await ask(sessionId, 'q6', 'secret');
    const secret = await pendingFor('q6');
    await h.http('POST', `/api/approvals/${secret.id}`, { decision: 'deny' });
    expect((await answerOf('q6')).result).toMatchObject({ kind: 'reject' });
  });

  it('pages newest first with next_cursor and filters by status and agent', async () => {
    const all = await h.http('GET', `/api/approvals?sessionId=${sessionId}`);
    const keys = all.body.approvals.map((a: Json) => a.arguments.args.key);
    expect(keys).toEqual(['q6', 'q3', 'q2', 'q1']);
    const first = await h.http('GET', `/api/approvals?sessionId=${sessionId}&limit=3`);
    expect(first.body.approvals.map((a: Json) => a.arguments.args.key)).toEqual(['q6', 'q3', 'q2']);
    const second = await h.http('GET', `/api/approvals?sessionId=${sessionId}&limit=3&after=${first.body.nextCursor}`);
    expect(second.body).toEqual({
      approvals: [expect.objectContaining({ arguments: expect.objectContaining({ args: { key: 'q1' } }) })],
      nextCursor: null,
    });
    expect((await h.http('GET', `/api/approvals?sessionId=${sessionId}&agentId=free&status=decided`)).body.approvals).toHaveLength(4);
    expect((await h.http('GET', `/api/approvals?agentId=nobody`)).body.approvals).toEqual([]);
  });

  it('expires a request left pending by a restart: the new process records it as expired', async () => {
    await ask(sessionId, 'q7', 'secret');
    const item = await pendingFor('q7');
    await h.restartApp({ approvals: { timeoutMs: 60_000 } });
    const after = await h.http('GET', `/api/approvals?sessionId=${sessionId}&status=expired`);
    expect(after.body.approvals.find((a: Json) => a.id === item.id)).toMatchObject({
      status: 'expired',
      reason: 'the service restarted while the request waited; the CLI no longer holds it',
      decidedAt: expect.any(String),
    });
    expect(await h.http('POST', `/api/approvals/${item.id}`, { decision: 'approve' })).toMatchObject({
      status: 409,
      body: { message: expect.stringContaining('already expired') },
    });
  });

  it('expires a waiting request when its session is destroyed, and the CLI is told no', async () => {
    const other = await h.createTeamSession({ permissionPolicy: { askTools: ['secret'] } });
    await h.fake.emitEvent(other, {
      type: 'permission.requested',
      data: { requestId: 'd1', permissionRequest: { kind: 'custom-tool', toolName: 'secret' } },
    });
    const item = await waitUntil(async () => (await h.http('GET', `/api/approvals?sessionId=${other}&status=pending`)).body.approvals[0], 'the approval');
    expect(item.lineagePath).toEqual(['main']);
    expect((await h.http('DELETE', `/api/sessions/${other}`)).status).toBe(200);
    const expired = await waitUntil(async () => (await h.http('GET', `/api/approvals?sessionId=${other}&status=expired`)).body.approvals[0], 'the expiry');
    expect(expired).toMatchObject({ id: item.id, reason: expect.stringContaining('destroyed') });
    expect((await answerOf('d1')).result).toEqual({ kind: 'reject', feedback: expect.stringContaining('expired: session') });
  });
});

describe('approvals: the timeout (fake CLI, protocol 3)', () => {
  let h: SessionHarness;
  beforeAll(async () => {
    h = await startSessionHarness({ protocolVersion: 3, config: { approvals: { timeoutMs: 300 } } });
  });
  afterAll(() => h.close());

  it('denies a request nobody decides within SWITCHBOARD_APPROVAL_TIMEOUT_MS, with that reason', async () => {
    const sessionId = await h.createTeamSession({ permissionPolicy: { askKinds: ['custom-tool'] } });
    await h.fake.emitEvent(sessionId, {
      type: 'permission.requested',
      data: { requestId: 't1', permissionRequest: { kind: 'custom-tool', toolName: 'lookup' } },
    });
    const answer = await h.fake.waitFor<Json>('session.permissions.handlePendingPermissionRequest', (p) => p.requestId === 't1', 10_000);
    expect(answer.result).toEqual({ kind: 'reject', feedback: 'denied: no decision within 300 ms (SWITCHBOARD_APPROVAL_TIMEOUT_MS)' });
    const item = (await h.http('GET', `/api/approvals?sessionId=${sessionId}`)).body.approvals[0];
    expect(item).toMatchObject({
      status: 'decided',
      decision: 'deny',
      decidedBy: 'timeout',
      reason: 'no decision within 300 ms (SWITCHBOARD_APPROVAL_TIMEOUT_MS)',
    });
  });
});

describe('approvals (fake CLI, protocol 2): the permission.request request resolves once decided', () => {
  let h: SessionHarness;
  beforeAll(async () => {
    h = await startSessionHarness({ protocolVersion: 2 });
  });
  afterAll(() => h.close());

  it('answers approved after the approval, and denied-by-rules after a denial', async () => {
    const sessionId = await h.createTeamSession({ permissionPolicy: { askTools: ['lookup'] } });
    let settled = false;
    const request = h.fake
      .request<Json>('permission.request', { sessionId, permissionRequest: { kind: 'custom-tool', toolName: 'lookup' } })
      .finally(() => {
        settled = true;
      });
    const item = await waitUntil(
      async () => (await h.http('GET', `/api/approvals?sessionId=${sessionId}&status=pending`)).body.approvals[0],
      'the approval',
    );
    expect(settled).toBe(false);
    await h.http('POST', `/api/approvals/${item.id}`, { decision: 'approve' });
    expect(await request).toEqual({ result: { kind: 'approved' } });

    const denied = h.fake.request<Json>('permission.request', { sessionId, permissionRequest: { kind: 'custom-tool', toolName: 'lookup' } });
    const second = await waitUntil(
      async () => (await h.http('GET', `/api/approvals?sessionId=${sessionId}&status=pending`)).body.approvals[0],
      'the second',
    );
    await h.http('POST', `/api/approvals/${second.id}`, { decision: 'deny' });
    expect(await denied).toEqual({ result: { kind: 'denied-by-rules' } });
  });
});

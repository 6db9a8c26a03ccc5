import { type RunningApp, startTestApp } from '../fixtures/app-fixture';

/**
 * issue 24: the JSON API is camelCase. Runs, approvals and session budgets answer in camelCase and
 * take camelCase keys; the snake_case keys they took before still work for one release, answered
 * with `Deprecation: true` and a `Warning` naming the new spelling.
 */
describe('the JSON API speaks camelCase, with the old snake_case keys deprecated', () => {
  let running: RunningApp;
  beforeAll(async () => (running = await startTestApp()));
  afterAll(() => running.close());

  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${running.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  }

  it('pages runs and approvals with nextCursor and camelCase filters, without a deprecation', async () => {
    const runs = await call('GET', '/api/runs?agentId=worker&rootRunId=r1&startedFrom=2026-01-01T00:00:00Z');
    expect(runs.status).toBe(200);
    expect(runs.body).toEqual({ runs: [], nextCursor: null });
    expect(runs.headers.get('deprecation')).toBeNull();
    const approvals = await call('GET', '/api/approvals?sessionId=s1&rootRunId=r1&agentId=worker');
    expect(approvals.body).toEqual({ approvals: [], nextCursor: null });
    expect(approvals.headers.get('warning')).toBeNull();
  });

  it('still takes the snake_case query keys, answering with Deprecation and a Warning naming the new spelling', async () => {
    const runs = await call('GET', '/api/runs?agent_id=worker&root_run_id=r1');
    expect(runs.status).toBe(200);
    expect(runs.body).toEqual({ runs: [], nextCursor: null });
    expect(runs.headers.get('deprecation')).toBe('true');
    expect(runs.headers.get('warning')).toMatch(
      /^299 - "snake_case keys are deprecated and refused from 0\.2\.0: use agentId \(not agent_id\), rootRunId \(not root_run_id\)"$/,
    );
    const approvals = await call('GET', '/api/approvals?session_id=s1');
    expect(approvals.status).toBe(200);
    expect(approvals.headers.get('warning')).toContain('sessionId (not session_id)');
  });

  it('takes a camelCase run body and, for now, the snake_case one: both reach the agent check', async () => {
    const fresh = await call('POST', '/api/runs', {
      agentId: 'no-such-agent',
      prompt: 'p',
      policy: { maxDepth: 1 },
      budget: { maxTokens: 100 },
    });
    expect(fresh).toMatchObject({ status: 422, body: { code: 'unknown_agent' } });
    expect(fresh.headers.get('deprecation')).toBeNull();
    const old = await call('POST', '/api/runs', { agent_id: 'no-such-agent', prompt: 'p', policy: { max_depth: 1 }, budget: { max_tokens: 100 } });
    expect(old).toMatchObject({ status: 422, body: { code: 'unknown_agent' } });
    expect(old.headers.get('deprecation')).toBe('true');
    expect(old.headers.get('warning')).toContain('policy.maxDepth (not policy.max_depth)');
  });

  it('refuses a body that gives both spellings of a key instead of picking one', async () => {
    const both = await call('POST', '/api/runs', { agentId: 'a', agent_id: 'b', prompt: 'p' });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('agent_id');
  });

  it("takes a session's budget in camelCase and its old snake_case limits with a deprecation", async () => {
    // A limit of 0 is refused by the same check in either spelling (no model provider is needed for that).
    const fresh = await call('POST', '/api/sessions', { budget: { maxRuns: 0 } });
    expect(fresh.status).toBe(400);
    expect(fresh.body.message).toContain('budget.maxRuns');
    expect(fresh.headers.get('deprecation')).toBeNull();
    const old = await call('POST', '/api/sessions', { budget: { max_runs: 0 } });
    expect(old.status).toBe(400);
    expect(old.body.message).toContain('budget.maxRuns');
    expect(old.headers.get('deprecation')).toBe('true');
    expect(old.headers.get('warning')).toContain('budget.maxRuns (not budget.max_runs)');
    const empty = await call('POST', '/api/sessions', { budget: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('maxTokens, maxToolCalls, maxRuns, maxDurationMs');
  });
});

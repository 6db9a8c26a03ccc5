import { graphqlHttp } from '../fixtures/graphql-client';
import type { Json, JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { type RequestContext, ScriptedModelServer } from '../fixtures/scripted-model-server';
import { sendTurn } from '../fixtures/session-turns';
import { waitUntil } from '../fixtures/wait-until';

/** Every model answer costs this much: 300 tokens. */
const USAGE = { prompt_tokens: 200, completion_tokens: 100 };
const TOKENS_PER_ANSWER = USAGE.prompt_tokens + USAGE.completion_tokens;

/**
 * Budgets per subtree on the real Copilot CLI, with a scripted model that keeps spending: the lead
 * starts workers and keeps calling tools, each worker keeps calling a tool, every answer costs 300
 * tokens. Each limit kind stops the budgeted run and every run under it; how far past the limit the
 * subtree went before it stopped (overshoot: a turn in flight finishes its model call) is printed.
 */
describe('budgets per subtree on the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  const overshoot: string[] = [];

  /** The lead's first answer, by the mode its prompt names. */
  function leadFirst(ctx: RequestContext) {
    if (ctx.allText.includes('MODE_FOREGROUND')) {
      return { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'Work WORK_LOOP.', budget: { max_tokens: 900 } } }] };
    }
    if (ctx.allText.includes('MODE_NARROW')) {
      const args = { agent_id: 'worker', prompt: 'Work WORK_LOOP.', background: true, budget: { max_tokens: 1_000_000 } };
      return { toolCalls: [{ name: 'agent_run', arguments: args }] };
    }
    if (ctx.allText.includes('MODE_HOLD')) return { toolCalls: [{ name: 'agent_output', arguments: { run_id: 'no-such-run' } }] };
    return { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'Work WORK_LOOP.', background: true } }] };
  }

  beforeAll(async () => {
    await model.start();
    model.setScript([
      {
        name: 'lead holds after one answer',
        systemIncludes: 'SPENDER_P',
        messagesInclude: 'MODE_HOLD',
        lastIsToolResult: true,
        answer: { hang: true },
      },
      {
        name: 'lead reads the budget stop',
        systemIncludes: 'SPENDER_P',
        lastIsToolResult: true,
        lastMessageIncludes: 'budget_exceeded',
        when: (ctx) => ctx.allText.includes('MODE_FOREGROUND'),
        answer: { text: 'LEAD_SAW_BUDGET' },
        usage: USAGE,
      },
      {
        name: 'lead keeps starting runs',
        systemIncludes: 'SPENDER_P',
        lastIsToolResult: true,
        when: (ctx) => ctx.allText.includes('MODE_RUNS'),
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'Work WORK_LOOP.', background: true } }] },
        delayMs: 100,
        usage: USAGE,
      },
      {
        name: 'lead keeps calling tools',
        systemIncludes: 'SPENDER_P',
        lastIsToolResult: true,
        answer: { toolCalls: [{ name: 'agent_output', arguments: { run_id: 'no-such-run' } }] },
        delayMs: 100,
        usage: USAGE,
      },
      {
        name: 'lead starts',
        systemIncludes: 'SPENDER_P',
        answer: leadFirst,
        usage: USAGE,
      },
      {
        name: 'owner reads the budget warning',
        systemIncludes: 'OWNER_P',
        lastMessageIncludes: 'close to their budget',
        answer: { text: 'OWNER_SAW_WARNING' },
      },
      {
        name: 'owner waits',
        systemIncludes: 'OWNER_P',
        lastIsToolResult: true,
        answer: { text: 'OWNER_WAITS' },
      },
      {
        name: 'owner starts two runs under its session budget',
        systemIncludes: 'OWNER_P',
        lastMessageIncludes: 'MODE_SESSION',
        answer: {
          toolCalls: [
            { name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'Work WORK_LOOP one.', background: true } },
            { name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'Work WORK_LOOP two.', background: true } },
          ],
        },
      },
      {
        name: 'owner starts a budgeted run',
        systemIncludes: 'OWNER_P',
        lastMessageIncludes: 'MODE_WARN',
        answer: {
          toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'Work WORK_LOOP.', background: true, budget: { max_tokens: 1000 } } }],
        },
      },
      {
        name: 'worker keeps calling tools',
        systemIncludes: 'WORKER_P',
        answer: { toolCalls: [{ name: 'agent_output', arguments: { run_id: 'no-such-run' } }] },
        delayMs: 100,
        usage: USAGE,
      },
    ]);
    running = await startRealCliApp(model);
    for (const agent of [
      { id: 'spender', name: 'Spender', system_message: { mode: 'append', content: 'SPENDER_P you delegate and keep working.' } },
      { id: 'owner', name: 'Owner', system_message: { mode: 'append', content: 'OWNER_P you start budgeted runs.' } },
      { id: 'worker', name: 'Worker', description: 'Works', system_message: { mode: 'append', content: 'WORKER_P you keep working.' } },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    if (overshoot.length) console.log(`Budget overshoot (past the limit before the subtree stopped):\n${overshoot.join('\n')}`);
  });

  const getRun = async (runId: string): Promise<Json> => (await http('GET', `/api/runs/${runId}`)).body;
  const subtree = async (rootRunId: string): Promise<Json[]> =>
    ((await http('GET', `/api/runs?rootRunId=${rootRunId}&limit=500`)).body.runs as Json[]).sort((a, b) => a.depth - b.depth);

  async function startBudgeted(mode: string, budget: Json): Promise<string> {
    const started = await http('POST', '/api/runs', { agentId: 'spender', prompt: `Go ${mode}.`, budget });
    expect(started.status).toBe(201);
    return started.body.runId as string;
  }

  /** Waits for the budgeted run to be stopped by its budget and every run under it to end; records the overshoot. */
  async function expectStoppedByBudget(rootRunId: string, limit: string, allowed: number, minRuns = 2): Promise<Json[]> {
    await waitUntil(async () => (await getRun(rootRunId)).status === 'stopped', `run ${rootRunId} to be stopped by its ${limit}`, 90_000);
    const runs = await waitUntil(
      async () => {
        const all = await subtree(rootRunId);
        return all.every((r) => r.status !== 'running') && all;
      },
      'every run of the subtree to end',
      30_000,
    );
    expect(runs.length).toBeGreaterThanOrEqual(minRuns);
    const [root, ...descendants] = runs;
    expect(root.stoppedBy).toMatchObject({ actor: 'budget', reason: 'budget_exceeded', limit, allowed });
    // A token or cost budget refuses the model call that would spend more once it is reached (the stop
    // begins at the limit); the others are stopped once passed.
    if (limit === 'max_tokens' || limit === 'max_cost') expect(root.stoppedBy.used).toBeGreaterThanOrEqual(allowed);
    else expect(root.stoppedBy.used).toBeGreaterThan(allowed);
    expect(root.stoppedBy.cascadeFrom).toBeUndefined();
    for (const run of descendants) {
      expect(run).toMatchObject({ status: 'stopped', stoppedBy: { actor: 'budget', reason: 'budget_exceeded', limit, cascadeFrom: rootRunId } });
    }
    const view = await getRun(rootRunId);
    // The limit's name is a value (`stoppedBy.limit`), the REST view's keys are camelCase.
    const { name, key } = {
      max_tokens: { name: 'maxTokens', key: 'tokens' },
      max_tool_calls: { name: 'maxToolCalls', key: 'toolCalls' },
      max_runs: { name: 'maxRuns', key: 'runs' },
      max_duration_ms: { name: 'maxDurationMs', key: 'durationMs' },
    }[limit] as { name: string; key: string };
    expect(view.budget.limits[name]).toBe(allowed);
    expect(view.budget.remaining[name]).toBe(0);
    const final = view.budget.used[key] as number;
    overshoot.push(
      `  ${limit}: allowed ${allowed}, used ${root.stoppedBy.used} when the stop began, ${final} once the subtree (${runs.length} runs) ended: ` +
        `${final - allowed} past (${(((final - allowed) / allowed) * 100).toFixed(0)}%)`,
    );
    return runs;
  }

  it('stops the run and every run under it once the subtree passed max_tokens', async () => {
    const rootRunId = await startBudgeted('MODE_TOKENS', { maxTokens: 3000 });
    await expectStoppedByBudget(rootRunId, 'max_tokens', 3000);
  }, 150_000);

  it('stops the subtree once it passed max_tool_calls', async () => {
    const rootRunId = await startBudgeted('MODE_TOOLS', { maxToolCalls: 8 });
    await expectStoppedByBudget(rootRunId, 'max_tool_calls', 8);
  }, 150_000);

  it('refuses a run past max_runs and stops the subtree', async () => {
    const rootRunId = await startBudgeted('MODE_RUNS', { maxRuns: 3 });
    const runs = await expectStoppedByBudget(rootRunId, 'max_runs', 3, 3);
    expect(runs).toHaveLength(3);
    expect((await getRun(rootRunId)).stoppedBy.used).toBe(4);
  }, 150_000);

  it('stops the subtree once its summed run time passed max_duration_ms', async () => {
    const rootRunId = await startBudgeted('MODE_TIME', { maxDurationMs: 4000 });
    await expectStoppedByBudget(rootRunId, 'max_duration_ms', 4000);
  }, 150_000);

  it("narrows a child's budget to what its parent's has left, and stops it by the parent's", async () => {
    const rootRunId = await startBudgeted('MODE_NARROW', { maxTokens: 2400 });
    const child = await waitUntil(async () => (await subtree(rootRunId)).find((r) => r.depth === 1), 'the child run', 60_000);
    // It asked for a million tokens; it got what the lead had left when it started (2,400, less the lead's
    // first answer once that was recorded).
    expect([2400, 2400 - TOKENS_PER_ANSWER]).toContain(child.budget.limits.maxTokens);
    const runs = await expectStoppedByBudget(rootRunId, 'max_tokens', 2400);
    expect(runs.find((r) => r.runId === child.runId).status).toBe('stopped');
  }, 150_000);

  it("tells the agent that called agent_run when the child's own budget stopped it", async () => {
    const started = await http('POST', '/api/runs', { agentId: 'spender', prompt: 'Go MODE_FOREGROUND.', background: false });
    expect(started.body).toMatchObject({ status: 'completed', output: 'LEAD_SAW_BUDGET' });
    const [, child] = await subtree(started.body.runId);
    expect(child).toMatchObject({
      status: 'stopped',
      stoppedBy: { actor: 'budget', reason: 'budget_exceeded', limit: 'max_tokens', allowed: 900 },
      budget: { limits: { maxTokens: 900 } },
    });
    const leadSaw = model.requests.find((r) => r.rule === 'lead reads the budget stop' && r.allText.includes(child.runId));
    expect(JSON.stringify(leadSaw?.lastMessage)).toContain('budget_exceeded');
    overshoot.push(`  max_tokens (foreground child): allowed 900, used ${child.stoppedBy.used} when the stop began`);
  }, 150_000);

  it("tells the owner's next turn that a run it started reached 80% of a limit, once", async () => {
    const session = (await http('POST', '/api/sessions', { agentId: 'owner', delegation: true })).body;
    await sendTurn(http, session.sessionId, 'Start it MODE_WARN.');
    const owned = ((await http('GET', '/api/runs?limit=500')).body.runs as Json[]).filter((r) => r.ownerThreadId === session.sessionId);
    expect(owned).toHaveLength(1);
    const runId = owned[0].runId as string;
    await waitUntil(async () => (await getRun(runId)).status === 'stopped', 'the budgeted run to be stopped', 60_000);
    const events = (await http('GET', `/api/streams/run-${runId}/events?limit=100`)).body;
    const warned = ((events.events ?? events) as Json[]).filter((e) => e.type === 'run.budget_warned');
    expect(warned).toEqual([expect.objectContaining({ data: { runId, limit: 'max_tokens', allowed: 1000, used: expect.any(Number) } })]);
    const used = warned[0].data.used as number;
    expect(used).toBeGreaterThanOrEqual(800);

    await sendTurn(http, session.sessionId, 'Anything new?');
    const told = model.requests.filter((r) => r.rule === 'owner reads the budget warning' && r.allText.includes(runId));
    expect(told).toHaveLength(1);
    expect(JSON.stringify(told[0].lastMessage)).toContain(`run ${runId} (agent worker) used ${used} of its max_tokens 1000`);
    await sendTurn(http, session.sessionId, 'Anything else?');
    expect(model.requests.filter((r) => r.rule === 'owner reads the budget warning')).toHaveLength(1);
  }, 150_000);

  it('refuses a run under a budget with nothing left (budget_exceeded, 409)', async () => {
    // One tool call spends the whole budget without passing it; the lead's next model call hangs. (A spent
    // token budget would refuse that call and stop the run; tool calls are only counted.)
    const rootRunId = await startBudgeted('MODE_HOLD', { maxToolCalls: 1, maxRuns: 5 });
    await waitUntil(async () => (await getRun(rootRunId)).budget.used.toolCalls === 1, 'the first tool call to be counted', 60_000);
    const refused = await http('POST', '/api/runs', { agentId: 'worker', prompt: 'More work.', parentRunId: rootRunId, budget: { maxRuns: 1 } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'budget_exceeded', details: { budgetRunId: rootRunId, limit: 'max_tool_calls', allowed: 1, used: 1 } });
    expect((await subtree(rootRunId)).map((r) => r.runId)).toEqual([rootRunId]);
    expect((await getRun(rootRunId)).status).toBe('running');
    await http('POST', `/api/runs/${rootRunId}/stop`, {});
  }, 150_000);

  it('takes a budget in the agentRun mutation and shows limits, use and what is left as Run.budget', async () => {
    const gql = graphqlHttp(() => running.app.baseUrl);
    const budgetFields =
      'budget { limits { maxTokens maxToolCalls maxRuns maxDurationMs } used { tokens toolCalls runs durationMs } remaining { maxTokens maxToolCalls } }';
    const started = await gql(`mutation ($input: AgentRunInput!) { agentRun(input: $input) { runId ${budgetFields} } }`, {
      input: { agentId: 'spender', prompt: 'Go MODE_GRAPHQL.', budget: { maxToolCalls: 6 } },
    });
    expect(started.body.errors).toBeUndefined();
    const runId = started.body.data?.agentRun.runId as string;
    expect(started.body.data?.agentRun.budget.limits).toEqual({ maxTokens: null, maxToolCalls: 6, maxRuns: null, maxDurationMs: null });
    await expectStoppedByBudget(runId, 'max_tool_calls', 6);
    // The stopped run's last model call can still record its usage after the stop: GraphQL is compared with
    // REST reads on either side of it that agree, so both see the same, settled use.
    const { read, rest } = await waitUntil(
      async () => {
        const before = await getRun(runId);
        const graphql = await gql(`query ($id: ID!) { run(id: $id) { status stoppedBy ${budgetFields} } }`, { id: runId });
        const after = await getRun(runId);
        return JSON.stringify(before.budget.used) === JSON.stringify(after.budget.used) && { read: graphql, rest: after };
      },
      "the stopped run's use to settle",
      30_000,
    );
    expect(read.body.data?.run).toMatchObject({
      status: 'stopped',
      stoppedBy: { actor: 'budget', reason: 'budget_exceeded', limit: 'max_tool_calls', allowed: 6 },
      budget: {
        used: { tokens: rest.budget.used.tokens, toolCalls: rest.budget.used.toolCalls, runs: rest.budget.used.runs },
        remaining: { maxTokens: null, maxToolCalls: 0 },
      },
    });
    const refused = await gql(`mutation ($input: AgentRunInput!) { agentRun(input: $input) { runId } }`, {
      input: { agentId: 'spender', prompt: 'x', budget: { maxRuns: 0 } },
    });
    expect(refused.body.errors?.[0].extensions?.code).toBe('invalid_input');
  }, 150_000);

  it("stops every run a session started once together they passed the session's budget, refuses more, and shows it in REST and GraphQL", async () => {
    const gql = graphqlHttp(() => running.app.baseUrl);
    const created = await gql('mutation ($input: CreateSessionInput) { createSession(input: $input) { sessionId } }', {
      input: { agentId: 'owner', delegation: true, budget: { maxToolCalls: 10 } },
    });
    expect(created.body.errors).toBeUndefined();
    const sessionId = created.body.data?.createSession.sessionId as string;
    const sessionBudget = async (): Promise<Json> => (await http('GET', `/api/sessions/${sessionId}/budget`)).body;
    expect(await sessionBudget()).toMatchObject({ sessionId: sessionId, limits: { maxToolCalls: 10 }, remaining: { maxToolCalls: 10 } });

    await sendTurn(http, sessionId, 'Start them MODE_SESSION.');
    const owned = async () => ((await http('GET', '/api/runs?limit=500')).body.runs as Json[]).filter((r) => r.ownerThreadId === sessionId);
    expect(await owned()).toHaveLength(2);
    // Each run alone was narrowed to the session's 10 tool calls; together they pass it first.
    const runs = await waitUntil(
      async () => {
        const all = await owned();
        return all.every((r) => r.status !== 'running') && all;
      },
      'both runs the session started to be stopped',
      90_000,
    );
    for (const run of runs) {
      expect(run).toMatchObject({
        status: 'stopped',
        budget: { limits: { maxToolCalls: 10 } },
        stoppedBy: { actor: 'budget', reason: 'budget_exceeded', limit: 'max_tool_calls' },
      });
    }
    expect(runs.filter((r) => r.stoppedBy.budgetSessionId === sessionId).length).toBeGreaterThanOrEqual(1);
    const view = await sessionBudget();
    expect(view).toMatchObject({ limits: { maxToolCalls: 10 }, used: { runs: 2 }, remaining: { maxToolCalls: 0 } });
    expect(view.used.toolCalls).toBeGreaterThan(10);
    const stoppedAt = runs.find((r) => r.stoppedBy.budgetSessionId === sessionId).stoppedBy.used as number;
    overshoot.push(`  max_tool_calls (session, 2 root runs): allowed 10, used ${stoppedAt} when the stop began, ${view.used.toolCalls} once both ended`);

    // Asking for more under the spent session budget is refused; the owner's model reads why.
    await sendTurn(http, sessionId, 'Again MODE_SESSION.');
    expect(await owned()).toHaveLength(2);
    const refusedSeen = model.requests.filter((r) => r.rule === 'owner waits' && r.allText.includes(`session ${sessionId}`));
    expect(JSON.stringify(refusedSeen.at(-1)?.lastMessage)).toContain('budget_exceeded');

    const read = await gql(
      'query ($id: ID!) { session(id: $id) { budget { limits { maxToolCalls maxTokens } used { toolCalls runs } remaining { maxToolCalls } } } }',
      {
        id: sessionId,
      },
    );
    expect(read.body.data?.session.budget).toEqual({
      limits: { maxToolCalls: 10, maxTokens: null },
      used: { toolCalls: view.used.toolCalls, runs: 2 },
      remaining: { maxToolCalls: 0 },
    });
    expect((await http('POST', '/api/sessions', { agentId: 'owner', budget: { maxToolCalls: 0 } })).status).toBe(400);
    const plain = (await http('POST', '/api/sessions', { agentId: 'owner' })).body.sessionId as string;
    expect((await http('GET', `/api/sessions/${plain}/budget`)).status).toBe(404);
  }, 180_000);

  it('refuses a budget that is not positive integers, or a cost that is not a positive amount (400)', async () => {
    for (const budget of [{}, { maxTokens: 0 }, { maxTokens: 1.5 }, { maxRuns: -2 }, { maxCost: 0 }, { maxCost: -1 }, { maxCosts: 3 }]) {
      const response = await http('POST', '/api/runs', { agentId: 'spender', prompt: 'x', budget });
      expect(response.status).toBe(400);
    }
  });
});

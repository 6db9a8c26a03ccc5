import { modelPriceTable } from '../../src/config/model-prices';
import { graphqlHttp } from '../fixtures/graphql-client';
import type { Json, JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { type RequestContext, ScriptedModelServer } from '../fixtures/scripted-model-server';
import { sendTurn } from '../fixtures/session-turns';
import { waitUntil } from '../fixtures/wait-until';

/** Every model answer: 200 input and 100 output tokens. */
const USAGE = { prompt_tokens: 200, completion_tokens: 100 };
const TOKENS_PER_ANSWER = USAGE.prompt_tokens + USAGE.completion_tokens;
/** Per million tokens: an answer costs 200 × 1000 / 1e6 + 100 × 2000 / 1e6 = 0.4 USD. */
const PRICES = modelPriceTable('USD', { 'gpt-4.1': { input: 1000, output: 2000 } });
const COST_PER_ANSWER = 0.4;
const REFUSED = 'Switchboard refused this model call';
/** Model names that a plain-object price table would have "priced" through Object.prototype. */
const PROTOTYPE_MODELS = ['constructor', '__proto__'];

/** What the ledger says of one budgeted tree, in the order Switchboard recorded it. */
interface Measured {
  /** Calls Switchboard sent to the provider. */
  sent: number;
  /** Calls it refused before sending. */
  refused: number;
  /** Sent calls that failed (a transport error the CLI retries): no answer, no usage. */
  failed: number;
  /** Sent calls whose end (finished or failed) is recorded. */
  ended: number;
  /** Calls sent while the recorded use had already reached the limit (target 0). */
  sentPastLimit: number;
  tokens: number;
  cost: number;
  /** Output caps sent upstream (a budget's tokens left), in order. */
  caps: number[];
}

/**
 * spec: issue 25, "Budgets that refuse before spending", on the real Copilot CLI whose model calls go
 * through Switchboard, with a scripted model that keeps spending (every answer 300 tokens, 0.4 USD).
 * Measured from the model-call ledger: calls sent past a limit (target 0) and tokens or cost past it
 * (target: at most one call of each agent still running), for max_tokens, max_cost and a child narrowed by
 * its parent's budget; printed beside the budgets e2e's overshoot (run-budgets.e2e-spec.ts).
 */
describe('budgets refuse model calls before spending (real CLI, routed)', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  const figures: string[] = [];

  function leadFirst(ctx: RequestContext) {
    if (ctx.allText.includes('MODE_TREE')) {
      const budget = ctx.allText.includes('MODE_TREE_NARROW') ? { max_tokens: 1_000_000 } : undefined;
      return {
        toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'Work WORK_LOOP.', background: true, ...(budget ? { budget } : {}) } }],
      };
    }
    return { toolCalls: [{ name: 'agent_output', arguments: { run_id: 'no-such-run' } }] };
  }

  beforeAll(async () => {
    await model.start();
    model.setScript([
      {
        name: 'lead keeps calling tools',
        systemIncludes: 'SPENDER_P',
        lastIsToolResult: true,
        answer: { toolCalls: [{ name: 'agent_output', arguments: { run_id: 'no-such-run' } }] },
        delayMs: 50,
        usage: USAGE,
      },
      { name: 'lead starts', systemIncludes: 'SPENDER_P', answer: leadFirst, usage: USAGE },
      { name: 'owner ends its turn', systemIncludes: 'OWNER_P', lastIsToolResult: true, answer: { text: 'Done.' }, usage: USAGE },
      {
        name: 'owner starts the named agent',
        systemIncludes: 'OWNER_P',
        answer: (ctx: RequestContext) => ({
          toolCalls: [{ name: 'agent_run', arguments: { agent_id: /RUN_AGENT=(\S+)/.exec(ctx.allText)?.[1] ?? 'worker', prompt: 'Work WORK_LOOP.' } }],
        }),
        usage: USAGE,
      },
      {
        name: 'worker keeps calling tools',
        systemIncludes: 'WORKER_P',
        answer: { toolCalls: [{ name: 'agent_output', arguments: { run_id: 'no-such-run' } }] },
        delayMs: 50,
        usage: USAGE,
      },
    ]);
    // Models named after Object.prototype's members (issue 39): the price table does not list them.
    model.models = ['gpt-4.1', ...PROTOTYPE_MODELS];
    running = await startRealCliApp(model, { modelCalls: { route: true, content: 'full', contentMaxBytes: 1 << 20, prices: PRICES } });
    for (const agent of [
      { id: 'spender', name: 'Spender', system_message: { mode: 'append', content: 'SPENDER_P you delegate and keep working.' } },
      { id: 'worker', name: 'Worker', description: 'Works', system_message: { mode: 'append', content: 'WORKER_P you keep working.' } },
      { id: 'owner', name: 'Owner', system_message: { mode: 'append', content: 'OWNER_P you start the agent named in the prompt.' } },
      ...PROTOTYPE_MODELS.map((name, i) => ({
        id: `proto-worker-${i}`,
        name: `Proto worker ${i}`,
        description: 'Works on a model named after an Object.prototype member',
        model: name,
        system_message: { mode: 'append', content: 'WORKER_P you keep working.' },
      })),
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 90_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    if (figures.length) console.log(`Budgets that refuse before spending (npx jest test/e2e/model-call-budgets.e2e-spec.ts):\n${figures.join('\n')}`);
  });

  const getRun = async (runId: string): Promise<Json> => (await http('GET', `/api/runs/${runId}`)).body;
  const subtree = async (rootRunId: string): Promise<Json[]> =>
    ((await http('GET', `/api/runs?rootRunId=${rootRunId}&limit=500`)).body.runs as Json[]).sort((a, b) => a.depth - b.depth);

  /** The last global position now: a scenario's calls are recorded after it. */
  async function lastPosition(): Promise<number> {
    let after = 0;
    for (;;) {
      const page = (await http('GET', `/api/events?after=${after}&limit=1000`)).body;
      if ((page.events as Json[]).length === 0) return after;
      after = page.nextAfter as number;
    }
  }

  /** Walks the tree's model-call events in the order they were recorded, counting use as each call ended. */
  async function measure(rootRunId: string, from: number, limit: 'max_tokens' | 'max_cost', allowed: number): Promise<Measured> {
    const measured: Measured = { sent: 0, refused: 0, failed: 0, ended: 0, sentPastLimit: 0, tokens: 0, cost: 0, caps: [] };
    const inTree = new Set<string>();
    let after = from;
    for (;;) {
      const page = (await http('GET', `/api/events?after=${after}&limit=1000`)).body;
      const events = page.events as Json[];
      if (events.length === 0) return measured;
      after = page.nextAfter as number;
      for (const event of events) {
        if (!String(event.streamId).startsWith('model_call-')) continue;
        const { data } = event;
        if (event.type === 'model_call.refused' && data.rootRunId === rootRunId) measured.refused += 1;
        if (event.type === 'model_call.started' && data.rootRunId === rootRunId) {
          inTree.add(data.callId as string);
          measured.sent += 1;
          if ((limit === 'max_tokens' ? measured.tokens : measured.cost) >= allowed) measured.sentPastLimit += 1;
          if (data.cappedOutputTokens !== undefined) measured.caps.push(data.cappedOutputTokens as number);
        }
        if (event.type === 'model_call.failed' && inTree.has(data.callId as string)) measured.failed += 1;
        if ((event.type === 'model_call.finished' || event.type === 'model_call.failed') && inTree.has(data.callId as string)) {
          measured.ended += 1;
          measured.tokens += (data.usage?.inputTokens ?? 0) + (data.usage?.outputTokens ?? 0);
          measured.cost = Math.round((measured.cost + (data.cost?.amount ?? 0)) * 1e6) / 1e6;
        }
      }
    }
  }

  /** Starts the tree, waits for its budget to stop it and every run in it to end; returns the runs and the ledger's figures. */
  async function runUntilRefused(mode: string, budget: Json, limit: 'max_tokens' | 'max_cost', allowed: number) {
    const from = await lastPosition();
    const started = await http('POST', '/api/runs', { agentId: 'spender', prompt: `Go ${mode}.`, budget });
    expect(started.status).toBe(201);
    const rootRunId = started.body.runId as string;
    await waitUntil(async () => (await getRun(rootRunId)).status !== 'running', `run ${rootRunId} to end by its ${limit}`, 90_000);
    const runs = await waitUntil(
      async () => {
        const all = await subtree(rootRunId);
        return all.every((r) => r.status !== 'running') && all;
      },
      'every run of the tree to end',
      30_000,
    );
    // Calls still answering when the stop began are recorded as they end.
    const measured = await waitUntil(
      async () => {
        const m = await measure(rootRunId, from, limit, allowed);
        return m.ended === m.sent && m;
      },
      'every call of the tree to end',
      10_000,
    );
    return { rootRunId, runs, measured };
  }

  function record(label: string, limit: string, allowed: number, m: Measured, unit = ''): void {
    const used = limit === 'max_cost' ? m.cost : m.tokens;
    const past = Math.round((used - allowed) * 1e6) / 1e6;
    figures.push(
      `  ${label}: allowed ${allowed}${unit}, ${m.sent} calls sent (${m.failed} failed), ${m.refused} refused, ${m.sentPastLimit} sent past the limit; ` +
        `used ${used}${unit} (${m.tokens} tokens): ${past}${unit} past (${((past / allowed) * 100).toFixed(0)}%)`,
    );
  }

  it('refuses the call after a lone agent reached max_tokens, caps the one before at what was left, and ends its turn with the message', async () => {
    // 900 is 3 answers: the use reaches the limit without passing it, so nothing stops the run after the
    // fact; only the refusal of the 4th call does.
    const { rootRunId, runs, measured } = await runUntilRefused('MODE_SOLO', { maxTokens: 900 }, 'max_tokens', 900);
    expect(runs).toHaveLength(1);
    expect(measured.sentPastLimit).toBe(0);
    expect(measured.refused).toBe(1);
    // 2 answers (600) leave 300: the 3rd call goes out capped at 300 output tokens, the 4th is refused.
    // (On a loaded machine a call may fail and be retried by the CLI: a failed call spent nothing.)
    expect(measured.caps).toContain(300);
    expect(measured.sent - measured.failed).toBe(3);
    expect(measured.tokens).toBe(900);
    record('max_tokens (one agent)', 'max_tokens', 900, measured);

    const run = await getRun(rootRunId);
    expect(run).toMatchObject({
      status: 'stopped',
      stoppedBy: { actor: 'budget', reason: 'budget_exceeded', limit: 'max_tokens', allowed: 900, used: 900 },
    });
    // The refusal ended the CLI's turn: the run's session says why, in the words the user reads.
    const sessionEvents = (await http('GET', `/api/streams/session-${run.threadId}/events?limit=1000`)).body;
    const errors = ((sessionEvents.events ?? sessionEvents) as Json[]).filter((e) => e.type === 'cli.session.error');
    expect(JSON.stringify(errors)).toContain(`${REFUSED}: run ${rootRunId}'s budget has reached max_tokens 900`);
    // The run's stop says it too, and its turn ended on the refusal, not on an abort.
    expect(run.stoppedBy).toMatchObject({ message: expect.stringContaining(REFUSED), forced: false });
    expect(((sessionEvents.events ?? sessionEvents) as Json[]).some((e) => e.type === 'cli.abort')).toBe(false);
    // The run views show what its calls cost, its own and its subtree's.
    expect(run.usage).toMatchObject({ modelCalls: 3, cost: 1.2, currency: 'USD', unpricedCalls: 0 });
    expect(run.subtreeUsage).toMatchObject({ modelCalls: 3, cost: 1.2, currency: 'USD' });
    const gql = graphqlHttp(() => running.app.baseUrl);
    const read = await gql('query ($id: ID!) { run(id: $id) { usage { own { cost currency modelCalls unpricedCalls } subtree { cost modelCalls } } } }', {
      id: rootRunId,
    });
    expect(read.body.data?.run.usage).toEqual({
      own: { cost: 1.2, currency: 'USD', modelCalls: 3, unpricedCalls: 0 },
      subtree: { cost: 1.2, modelCalls: 3 },
    });
  }, 150_000);

  it('stops a tree (a lead and its worker) at max_tokens with no call sent past it', async () => {
    const { runs, measured } = await runUntilRefused('MODE_TREE', { maxTokens: 3000 }, 'max_tokens', 3000);
    expect(runs.length).toBe(2);
    expect(measured.sentPastLimit).toBe(0);
    // Two agents answering at once can pass the limit together: then the budget's stop reaches the tree
    // before either asks again, and nothing is left to refuse. Refused or stopped, no call goes out past it
    // (the lone agent's test shows the refusal itself).
    // Past the limit: at most one answer of each agent that was answering when the limit was reached.
    expect(measured.tokens - 3000).toBeLessThanOrEqual(runs.length * TOKENS_PER_ANSWER);
    for (const run of runs) expect(run).toMatchObject({ status: 'stopped', stoppedBy: { actor: 'budget', limit: 'max_tokens' } });
    record('max_tokens (lead + worker)', 'max_tokens', 3000, measured);
  }, 150_000);

  it('stops a tree at max_cost (the price table counts each call) with no call sent past it', async () => {
    const { rootRunId, runs, measured } = await runUntilRefused('MODE_TREE', { maxCost: 2 }, 'max_cost', 2);
    expect(measured.sentPastLimit).toBe(0);
    // As at max_tokens: the next calls are refused, or the stop reaches the tree before there is one.
    expect(measured.cost - 2).toBeLessThanOrEqual(runs.length * COST_PER_ANSWER + 1e-9);
    expect(await getRun(rootRunId)).toMatchObject({
      status: 'stopped',
      stoppedBy: { actor: 'budget', reason: 'budget_exceeded', limit: 'max_cost', allowed: 2 },
      budget: { limits: { maxCost: 2 }, remaining: { maxCost: 0 } },
    });
    record('max_cost (lead + worker)', 'max_cost', 2, measured, ' USD');
  }, 150_000);

  it("narrows a child to what its parent's budget has left and refuses both once the parent's is spent", async () => {
    const { runs, measured } = await runUntilRefused('MODE_TREE_NARROW', { maxTokens: 2400 }, 'max_tokens', 2400);
    const child = runs.find((r) => r.depth === 1);
    expect([2400, 2400 - TOKENS_PER_ANSWER]).toContain(child?.budget.limits.maxTokens);
    expect(measured.sentPastLimit).toBe(0);
    expect(measured.tokens - 2400).toBeLessThanOrEqual(runs.length * TOKENS_PER_ANSWER);
    expect(child).toMatchObject({ status: 'stopped', stoppedBy: { actor: 'budget' } });
    record('max_tokens (child narrowed by its parent)', 'max_tokens', 2400, measured);
  }, 150_000);

  it("refuses every call to a model named after an Object.prototype member under a session's maxCost (issue 39)", async () => {
    for (const [i, name] of PROTOTYPE_MODELS.entries()) {
      const from = await lastPosition();
      const created = await http('POST', '/api/sessions', { agentId: 'owner', delegation: true, budget: { maxCost: 0.1 } });
      expect(created.status).toBe(201);
      const sessionId = created.body.sessionId as string;
      await sendTurn(http, sessionId, `Start it RUN_AGENT=proto-worker-${i}`, 90_000);
      const owned = ((await http('GET', '/api/runs?limit=500')).body.runs as Json[]).filter((r) => r.ownerThreadId === sessionId);
      expect(owned).toHaveLength(1);
      const runId = owned[0].runId as string;
      await waitUntil(async () => (await getRun(runId)).status !== 'running', `run ${runId} to end`, 60_000);
      const measured = await measure(runId, from, 'max_cost', 0.1);
      // Not one call of the run went out: its model has no price, so its cost could not be counted.
      expect(measured).toMatchObject({ sent: 0, tokens: 0, cost: 0 });
      expect(measured.refused).toBeGreaterThanOrEqual(1);
      const calls = (await http('GET', `/api/runs/${runId}/model-calls?limit=100`)).body;
      const runCalls = calls.calls as Json[];
      expect(runCalls.length).toBeGreaterThanOrEqual(1);
      for (const call of runCalls) expect(call).toMatchObject({ model: name, status: 'refused' });
      const events = (await http('GET', `/api/streams/session-${owned[0].threadId}/events?limit=1000`)).body;
      const errors = ((events.events ?? events) as Json[]).filter((e) => e.type === 'cli.session.error');
      expect(JSON.stringify(errors)).toContain(`model ${name} has no price in SWITCHBOARD_MODEL_PRICES`);
    }
  }, 240_000);

  it('refuses a maxCost budget where no price table is configured, naming SWITCHBOARD_MODEL_PRICES (422)', async () => {
    const unpriced = await startRealCliApp(model);
    try {
      expect((await unpriced.http('POST', '/api/agents', { id: 'worker', name: 'Worker', description: 'Works' })).status).toBe(201);
      const run = await unpriced.http('POST', '/api/runs', { agentId: 'worker', prompt: 'x', budget: { maxCost: 1 } });
      expect(run.status).toBe(422);
      expect(run.body).toMatchObject({ code: 'budget_unavailable', message: expect.stringContaining('SWITCHBOARD_MODEL_PRICES') });
      const session = await unpriced.http('POST', '/api/sessions', { budget: { maxCost: 1 } });
      expect(session.status).toBe(422);
      expect(session.body.message).toContain('SWITCHBOARD_MODEL_PRICES');
      // Budgets that need no price table still work there.
      expect((await unpriced.http('POST', '/api/sessions', { budget: { maxTokens: 1000 } })).status).toBe(201);
    } finally {
      await unpriced.close();
    }
  }, 90_000);
});

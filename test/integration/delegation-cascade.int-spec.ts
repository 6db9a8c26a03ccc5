import { appStoreTargets } from '../fixtures/app-store-targets';
import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

/**
 * spec: sub-agent-delegation. Stop reaches every descendant (background grandchildren included), a tool
 * call may only control the runs of its own thread, and every policy rule refuses with an event.
 * The real Copilot CLI, on a SQLite file and on a PostgreSQL database; the scripted model keeps runs busy (`hang`).
 */
describe.each(appStoreTargets())('delegation: cascade, ownership and policy (%s)', (_name, store) => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  /** The run the `intruder` session's agent tries to control. */
  let foreignRunId = '';

  beforeAll(async () => {
    await model.start();
    model.setScript([
      // Three levels, each child started in the background, every level then kept busy.
      {
        name: 'root delegates',
        systemIncludes: 'ROOT_P',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'mid', prompt: 'MID_TASK', background: true } }] },
      },
      {
        name: 'mid delegates',
        systemIncludes: 'MID_P',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'leaf', prompt: 'LEAF_TASK', background: true } }] },
      },
      {
        name: 'busy after delegating',
        lastIsToolResult: true,
        systemIncludes: '_P ',
        when: (ctx) => !ctx.systemText.includes('INTRUDER_P'),
        answer: { hang: true },
      },
      { name: 'leaf works', systemIncludes: 'LEAF_P', answer: { hang: true } },
      { name: 'worker works', systemIncludes: 'WORKER_P', answer: { hang: true } },
      { name: 'boss works', systemIncludes: 'BOSS_P', answer: { hang: true } },
      // A session whose agent tries to stop and read a run it does not own, and to delegate to itself.
      {
        name: 'intruder acts',
        systemIncludes: 'INTRUDER_P',
        lastIsToolResult: false,
        answer: () => ({
          toolCalls: [
            { name: 'agent_stop', arguments: { run_id: foreignRunId } },
            { name: 'agent_output', arguments: { run_id: foreignRunId } },
            { name: 'agent_run', arguments: { agent_id: 'intruder', prompt: 'do it yourself' } },
          ],
        }),
      },
      { name: 'intruder done', systemIncludes: 'INTRUDER_P', lastIsToolResult: true, answer: { text: 'INTRUDER_DONE' } },
    ]);
    const defaults = testConfig('/tmp').runs;
    running = await startRealCliApp(model, { runs: { ...defaults, stopGraceMs: 1500 } }, store);
    const agent = (id: string, prompt: string, extra: Json = {}) => ({
      id,
      name: id,
      system_message: { mode: 'append', content: `${prompt} agent.` },
      ...extra,
    });
    for (const a of [
      agent('root', 'ROOT_P'),
      agent('mid', 'MID_P'),
      agent('leaf', 'LEAF_P'),
      agent('worker', 'WORKER_P'),
      agent('boss', 'BOSS_P', { allowed_agents: ['worker', 'boss', 'banned'], excluded_agents: ['banned'] }),
      agent('banned', 'BANNED_P'),
      agent('outsider', 'OUTSIDER_P'),
      agent('intruder', 'INTRUDER_P'),
    ]) {
      expect((await http('POST', '/api/agents', a)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  const run = async (id: string): Promise<Json> => (await http('GET', `/api/runs/${id}`)).body;
  const start = (body: Json) => http('POST', '/api/runs', body);
  const leafRequests = () => model.requests.filter((r) => r.rule === 'leaf works');

  it('stops a run, its background child and its background grandchild, recording who stopped each', async () => {
    const root = (await start({ agentId: 'root', prompt: 'ROOT_TASK' })).body;
    expect(root).toMatchObject({ agentId: 'root', status: 'running', background: true });
    await waitUntil(() => leafRequests().length > 0, 'the grandchild to be working', 60_000);
    const tree = (await http('GET', `/api/runs/${root.runId}/tree`)).body;
    const mid = tree.children.find((c: Json) => c.kind === 'run');
    const leaf = mid.children.find((c: Json) => c.kind === 'run');
    expect([mid.agentId, mid.depth, mid.parentRunId, mid.background]).toEqual(['mid', 1, root.runId, true]);
    expect([leaf.agentId, leaf.depth, leaf.parentRunId, leaf.rootRunId]).toEqual(['leaf', 2, mid.runId, root.runId]);

    const stop = await http('POST', `/api/runs/${root.runId}/stop`, { reason: 'operator cancelled' });
    expect(stop.status).toBe(200);
    expect(new Set(stop.body.stoppedRuns)).toEqual(new Set([root.runId, mid.runId, leaf.runId]));

    const after = await Promise.all([root.runId, mid.runId, leaf.runId].map(run));
    expect(after.map((r) => r.status)).toEqual(['stopped', 'stopped', 'stopped']);
    expect(after[0].stoppedBy).toMatchObject({ actor: 'api', reason: 'operator cancelled' });
    expect(after[1].stoppedBy).toMatchObject({ actor: 'api', cascadeFrom: root.runId });
    expect(after[2].stoppedBy).toMatchObject({ actor: 'api', cascadeFrom: root.runId });

    // Nothing keeps running underneath: the stopped leaf's model request was abandoned, not answered.
    expect((await http('GET', '/api/runs?status=running')).body.runs.filter((r: Json) => r.rootRunId === root.runId)).toEqual([]);
    // Stopping again is a conflict, not a silent success.
    expect((await http('POST', `/api/runs/${root.runId}/stop`, {})).status).toBe(409);
  }, 120_000);

  it('refuses a tool call that stops, reads or self-delegates outside its own thread, and records the refusal', async () => {
    const foreign = (await start({ agentId: 'worker', prompt: 'WORKER_TASK' })).body;
    foreignRunId = foreign.runId;
    const session = (await http('POST', '/api/sessions', { agentId: 'intruder', delegation: true })).body;
    await http('POST', `/api/sessions/${session.sessionId}/messages`, { prompt: 'Interfere.' });
    await waitUntil(async () => (await http('GET', `/api/sessions/${session.sessionId}`)).body.status === 'idle', 'the intruder turn', 60_000);

    const toolResults = model.requests.find((r) => r.rule === 'intruder done')?.messages.filter((m: Json) => m.role === 'tool') ?? [];
    const texts = toolResults.map((m: Json) => String(m.content));
    expect(texts.filter((t: string) => t.includes('"code":"policy_denied"'))).toHaveLength(3);
    expect(texts.some((t: string) => t.includes('cannot delegate to itself'))).toBe(true);
    expect((await run(foreign.runId)).status).toBe('running');

    const events = (await http('GET', `/api/streams/session-${session.sessionId}/events?limit=1000`)).body;
    const refused = (events.events ?? events).filter((e: Json) => e.type === 'run.delegation_refused');
    expect(refused).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ agentId: 'intruder', reason: 'intruder cannot delegate to itself' }) }),
    ]);
    expect((await http('POST', `/api/runs/${foreign.runId}/stop`, {})).status).toBe(200);
  }, 120_000);

  describe('policy', () => {
    let boss: Json;

    beforeAll(async () => {
      boss = (await start({ agentId: 'boss', prompt: 'BOSS_TASK', policy: { maxConcurrentChildren: 1, maxDepth: 1 } })).body;
    });

    afterAll(async () => {
      await http('POST', `/api/runs/${boss.runId}/stop`, {});
    });

    async function refusedWith(agentId: string, reason: RegExp, parent = boss.runId): Promise<void> {
      const response = await start({ agentId: agentId, prompt: 'x', parentRunId: parent });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'policy_denied' });
      expect(response.body.message).toMatch(reason);
      const parentThread = (await run(parent)).threadId;
      const events = (await http('GET', `/api/streams/session-${parentThread}/events?limit=1000`)).body;
      const refusals = (events.events ?? events).filter((e: Json) => e.type === 'run.delegation_refused' && e.data.agentId === agentId);
      expect(refusals.at(-1)?.data.reason).toMatch(reason);
    }

    it('refuses self-delegation', () => refusedWith('boss', /boss cannot delegate to itself/));
    it('refuses an agent outside allowed_agents', () => refusedWith('outsider', /not among the allowed agents \(worker, boss, banned\)/));
    it('refuses an excluded agent', () => refusedWith('banned', /banned is an excluded agent/));

    it('refuses a second running child above max_concurrent_children, then a grandchild below max_depth', async () => {
      await waitUntil(
        async () => (await run(boss.runId)).status === 'running' && model.requests.some((r) => r.rule === 'boss works'),
        'boss to work',
        60_000,
      );
      const first = await start({ agentId: 'worker', prompt: 'WORKER_ONE', parentRunId: boss.runId });
      expect(first.status).toBe(201);
      await refusedWith('worker', /already has 1 running child runs, the maximum is 1/);
      // The child inherits max_depth 1: its own child would be at depth 2.
      await refusedWith('leaf', /depth 2, deeper than the maximum of 1/, first.body.runId);
    }, 60_000);

    it('stops a run that outlives its timeout, naming the timeout', async () => {
      const slow = (await start({ agentId: 'worker', prompt: 'WORKER_SLOW', policy: { timeoutMs: 1000 } })).body;
      const ended = await waitUntil(
        async () => {
          const r = await run(slow.runId);
          return r.status !== 'running' && r;
        },
        'the timeout',
        30_000,
      );
      expect(ended.status).toBe('stopped');
      expect(ended.stoppedBy).toMatchObject({ actor: 'switchboard', reason: 'timed out after 1000 ms (run policy timeout)' });
    }, 60_000);
  });

  it('answers bad requests with the code that says what to fix', async () => {
    expect((await start({ agentId: 'nobody', prompt: 'x' })).body).toMatchObject({ statusCode: 422, code: 'unknown_agent' });
    expect((await http('GET', '/api/runs/no-such-run')).body).toMatchObject({ statusCode: 404, code: 'unknown_run' });
    expect((await start({ agentId: 'worker' })).status).toBe(400);
    expect((await start({ agentId: 'worker', prompt: 'x', parentRunId: 'no-such-run' })).body).toMatchObject({ statusCode: 404, code: 'unknown_run' });
    expect((await http('POST', '/api/runs/no-such-run/resume', {})).status).toBe(404);
  });
});

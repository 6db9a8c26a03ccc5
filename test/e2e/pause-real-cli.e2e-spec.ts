import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { type RecordedRequest, type RequestContext, ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';
import { WebhookRecorder } from '../fixtures/webhook-recorder';

/** A hook webhook call the test holds open: the tool before it has run; the agent's next step waits for the answer. */
class HeldAnswer {
  private release!: () => void;
  readonly answered = new Promise<{ body: Json }>((resolve) => (this.release = () => resolve({ body: {} })));
  let(): void {
    this.release();
  }
}

/** A promise the test resolves when it is ready. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const toolResults = (ctx: RequestContext) => ctx.messages.filter((m) => m.role === 'tool').length;
const BROKEN = { run_id: 'no-such-run' };

/**
 * issue 26, "Pause and resume a subtree", on the real Copilot CLI with a scripted model: a three-level
 * tree lead → mid → leaf with a sibling `side` beside mid. Counting the requests at the model and at the
 * hook webhook shows that nothing of mid's subtree goes on while it is paused, while side does; unpause
 * lets it finish. A restart keeps a pause (it is an event), and a paused run can still be stopped.
 */
describe('pause and unpause a subtree (real CLI, routed model calls)', () => {
  const model = new ScriptedModelServer();
  const webhooks = new WebhookRecorder();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  /** The console's client header: the pause is recorded as the console's. */
  const consoleHttp: JsonHttp = (...args) => jsonHttp(() => running.app.baseUrl, { 'x-switchboard-client': 'console' })(...args);
  const held = new Map<string, HeldAnswer>();

  const requestsOf = (marker: string): RecordedRequest[] => model.requests.filter((r) => r.systemText.includes(marker));
  const getRun = async (runId: string): Promise<Json> => (await http('GET', `/api/runs/${runId}`)).body;
  const runOfAgent = async (rootRunId: string, agentId: string): Promise<Json> =>
    waitUntil(
      async () => ((await http('GET', `/api/runs?rootRunId=${rootRunId}&limit=50`)).body.runs as Json[]).find((r) => r.agentId === agentId),
      `a run of ${agentId}`,
      60_000,
    );
  const untilStatus = (runId: string, status: string) =>
    waitUntil(async () => (await getRun(runId)).status === status, `run ${runId} to be ${status}`, 90_000);

  /** The first call to `path` stays open until the test lets it go; the next ones are answered at once. */
  function holdFirst(path: string): HeldAnswer {
    const answer = new HeldAnswer();
    held.set(path, answer);
    webhooks.answer(path, () => (webhooks.callsTo(path).length === 1 ? answer.answered : { body: {} }));
    return answer;
  }

  const hooksTo = (path: string) => [
    { type: 'postToolUse', url: webhooks.url(path) },
    { type: 'postToolUseFailure', url: webhooks.url(path) },
  ];

  /** The session's first model answer waits for this: the test pauses the session while the call is at the model. */
  const sessionAnswer = gate();
  /** The CLI sub-agent's first model answer waits for this. */
  const scribeAnswer = gate();

  beforeAll(async () => {
    await Promise.all([model.start(), webhooks.start()]);
    model.setScript([
      {
        name: 'session: note it',
        messagesInclude: 'SESSION_Q',
        lastIsToolResult: false,
        until: () => sessionAnswer.opened,
        answer: { toolCalls: [{ name: 'note', arguments: { content: 'held' } }] },
      },
      { name: 'session: done', messagesInclude: 'SESSION_Q', lastIsToolResult: true, answer: { text: 'SESSION_DONE' } },
      {
        name: 'scribe: note it',
        who: 'child',
        systemIncludes: 'SCRIBE_P',
        lastIsToolResult: false,
        until: () => scribeAnswer.opened,
        answer: { toolCalls: [{ name: 'note', arguments: { content: 'from the scribe' } }] },
      },
      { name: 'scribe: done', who: 'child', systemIncludes: 'SCRIBE_P', lastIsToolResult: true, answer: { text: 'SCRIBE_DONE' } },
      {
        name: 'lead asks the scribe',
        who: 'parent',
        messagesInclude: 'SUB_Q',
        lastIsToolResult: false,
        answer: {
          toolCalls: [{ name: 'task', arguments: { agent_type: 'scribe', name: 'scribe-1', description: 'Note', prompt: 'Note it.', mode: 'sync' } }],
        },
      },
      { name: 'lead done', who: 'parent', messagesInclude: 'SUB_Q', lastIsToolResult: true, answer: { text: 'SUB_DONE' } },
      {
        name: 'lead',
        systemIncludes: 'LEAD_P',
        answer: (ctx) =>
          toolResults(ctx) === 0
            ? { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'side', prompt: 'Go SIDE.', background: true } }] }
            : toolResults(ctx) === 1
              ? { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'mid', prompt: 'Go MID.', background: false } }] }
              : { text: 'LEAD_DONE' },
      },
      {
        name: 'mid',
        systemIncludes: 'MID_P',
        answer: (ctx) =>
          toolResults(ctx) === 0
            ? { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'leaf', prompt: 'Go LEAF.', background: false } }] }
            : { text: 'MID_DONE' },
      },
      {
        name: 'leaf',
        systemIncludes: 'LEAF_P',
        answer: (ctx) => (toolResults(ctx) < 2 ? { toolCalls: [{ name: 'agent_output', arguments: BROKEN }] } : { text: 'LEAF_DONE' }),
      },
      {
        name: 'side',
        systemIncludes: 'SIDE_P',
        answer: (ctx) => (toolResults(ctx) < 2 ? { toolCalls: [{ name: 'agent_output', arguments: BROKEN }] } : { text: 'SIDE_DONE' }),
      },
      {
        name: 'solo',
        systemIncludes: 'SOLO_P',
        answer: (ctx) => (toolResults(ctx) < 2 ? { toolCalls: [{ name: 'agent_output', arguments: BROKEN }] } : { text: 'SOLO_DONE' }),
      },
    ]);
    running = await startRealCliApp(model, { modelCalls: { route: true, content: 'metadata', contentMaxBytes: 0, prices: undefined } });
    const agents = [
      { id: 'lead', name: 'Lead', system_message: { mode: 'append', content: 'LEAD_P you delegate.' } },
      { id: 'mid', name: 'Mid', description: 'Delegates again', system_message: { mode: 'append', content: 'MID_P you delegate.' } },
      { id: 'leaf', name: 'Leaf', description: 'Works', system_message: { mode: 'append', content: 'LEAF_P you work.' }, hooks: hooksTo('/leaf_hook') },
      {
        id: 'side',
        name: 'Side',
        description: 'Works beside',
        system_message: { mode: 'append', content: 'SIDE_P you work.' },
        hooks: hooksTo('/side_hook'),
      },
      {
        id: 'solo',
        name: 'Solo',
        description: 'Works alone',
        system_message: { mode: 'append', content: 'SOLO_P you work.' },
        hooks: hooksTo('/solo_hook'),
      },
    ];
    for (const agent of agents) expect((await http('POST', '/api/agents', agent)).status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    for (const answer of held.values()) answer.let();
    await running?.close();
    await Promise.all([model.stop(), webhooks.stop()]);
  });

  it('holds every model call and hook of the paused subtree while a sibling goes on, and lets them finish in order on unpause', async () => {
    const leafHook = holdFirst('/leaf_hook');
    const sideHook = holdFirst('/side_hook');
    const started = await http('POST', '/api/runs', { agentId: 'lead', prompt: 'Go LEAD.' });
    expect(started.status).toBe(201);
    const leadId = started.body.runId as string;
    // Both workers are inside their first tool's hook: the tool ran, their next step waits for the hook.
    await waitUntil(() => webhooks.callsTo('/leaf_hook').length === 1 && webhooks.callsTo('/side_hook').length === 1, 'the first hooks', 90_000);
    const mid = await runOfAgent(leadId, 'mid');
    const leaf = await runOfAgent(leadId, 'leaf');
    const side = await runOfAgent(leadId, 'side');

    const paused = await consoleHttp('POST', `/api/runs/${mid.runId}/pause`, { reason: 'look at it first' });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({
      target: 'run',
      id: mid.runId,
      pause: { by: 'console', target: 'run', runId: mid.runId, reason: 'look at it first' },
    });
    expect((await http('POST', `/api/runs/${mid.runId}/pause`, {})).body).toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('already paused'),
    });
    const before = { mid: requestsOf('MID_P').length, leaf: requestsOf('LEAF_P').length };

    leafHook.let();
    sideHook.let();
    // The sibling outside the subtree goes on to the end; the leaf's next model call waits.
    await untilStatus(side.runId, 'completed');
    await waitUntil(async () => (await getRun(mid.runId)).pause?.held >= 1, 'a step of the paused subtree to be held', 30_000);
    expect(requestsOf('SIDE_P').length).toBe(3);
    expect(webhooks.callsTo('/side_hook').length).toBe(2);
    expect({ mid: requestsOf('MID_P').length, leaf: requestsOf('LEAF_P').length }).toEqual(before);
    expect(webhooks.callsTo('/leaf_hook')).toHaveLength(1);

    // Every view says paused, since when and by whom.
    const leafView = await getRun(leaf.runId);
    expect(leafView).toMatchObject({ status: 'paused', pause: { by: 'console', target: 'run', runId: mid.runId, held: 1 } });
    expect(Date.parse(leafView.pause.since)).toBeGreaterThan(0);
    expect((await getRun(leadId)).status).toBe('running');
    const tree = (await http('GET', `/api/runs/${leadId}/tree`)).body;
    const midNode = (tree.children as Json[]).find((c) => c.runId === mid.runId);
    expect(midNode).toMatchObject({ status: 'paused', children: [expect.objectContaining({ runId: leaf.runId, status: 'paused' })] });
    const listed = (await http('GET', `/api/runs?rootRunId=${leadId}`)).body.runs as Json[];
    expect(Object.fromEntries(listed.map((r) => [r.agentId, r.status]))).toEqual({ lead: 'running', mid: 'paused', leaf: 'paused', side: 'completed' });
    const gql = graphqlHttp(() => running.app.baseUrl);
    const read = await gql('query ($id: ID!) { run(id: $id) { status pause { by target runId held } } }', { id: leaf.runId });
    expect(read.body.data?.run).toEqual({ status: 'paused', pause: { by: 'console', target: 'run', runId: mid.runId, held: 1 } });

    // Waiting on a paused run would hold the request without end: a foreground resume is refused, naming the pause.
    const waited = await http('POST', `/api/runs/${leaf.runId}/resume`, { background: false });
    expect(waited.status).toBe(409);
    expect(waited.body.message).toMatch(/is paused \(since .*, by console\); unpause it first, or ask with background: true/);

    const unpaused = await http('POST', `/api/runs/${mid.runId}/unpause`);
    expect(unpaused.body).toMatchObject({ target: 'run', id: mid.runId, released: 1 });
    await untilStatus(leadId, 'completed');
    // Released in order: the leaf's held call, then its last one, then mid's, then lead's.
    expect(requestsOf('LEAF_P').length).toBe(before.leaf + 2);
    expect(requestsOf('MID_P').length).toBe(before.mid + 1);
    expect(webhooks.callsTo('/leaf_hook')).toHaveLength(2);
    for (const run of [mid, leaf]) expect(await getRun(run.runId)).toMatchObject({ status: 'completed', pause: null });

    // Recorded with who did it; what is not running or not paused is refused, naming its state.
    const events = (await http('GET', `/api/streams/pause-run-${mid.runId}/events`)).body.events as Json[];
    expect(events.map((e) => [e.type, e.metadata.actor])).toEqual([
      ['pause.paused', 'console'],
      ['pause.unpaused', 'api'],
    ]);
    expect(events[1].data.pausedMs).toBeGreaterThan(0);
    expect((await http('POST', `/api/runs/${mid.runId}/unpause`)).status).toBe(409);
    const ended = await http('POST', `/api/runs/${leadId}/pause`, {});
    expect(ended).toMatchObject({ status: 409, body: { message: `Run ${leadId} is completed; only a running run can be paused` } });
    expect((await http('POST', '/api/runs/no-such-run/pause', {})).status).toBe(404);
  }, 180_000);

  it("holds a paused session's routed tool call until it is unpaused (a call already at the model finishes)", async () => {
    const created = await http('POST', '/api/sessions', {
      tools: [
        {
          name: 'note',
          description: 'Note something',
          parameters: { type: 'object', properties: { content: { type: 'string' } } },
          handler: { type: 'webhook', url: webhooks.url('/note') },
        },
      ],
    });
    const sessionId = created.body.sessionId as string;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'SESSION_Q note it' })).status).toBe(202);
    await model.waitForRequests((r) => r.allText.includes('SESSION_Q'), 1, 60_000);
    // Through GraphQL this time, from the console.
    const gql = graphqlHttp(() => running.app.baseUrl);
    const paused = await gql(
      'mutation ($id: ID!) { pauseSession(sessionId: $id, reason: "wait") { target id pause { by target sessionId reason } } }',
      { id: sessionId },
      { 'x-switchboard-client': 'console' },
    );
    expect(paused.body.data?.pauseSession).toEqual({
      target: 'session',
      id: sessionId,
      pause: { by: 'console', target: 'session', sessionId, reason: 'wait' },
    });
    // The model's answer asks for the webhook tool: the tool call waits at the router.
    sessionAnswer.open();
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}/pause`)).body.pause?.held === 1, 'the tool call to be held', 30_000);
    expect(webhooks.callsTo('/note')).toHaveLength(0);
    const read = await gql('query ($id: ID!) { session(id: $id) { pause { target sessionId held } } }', { id: sessionId });
    expect(read.body.data?.session.pause).toEqual({ target: 'session', sessionId, held: 1 });

    const unpaused = await gql('mutation ($id: ID!) { unpauseSession(sessionId: $id) { released } }', { id: sessionId });
    expect(unpaused.body.data?.unpauseSession).toEqual({ released: 1 });
    const again = await gql('mutation ($id: ID!) { unpauseSession(sessionId: $id) { released } }', { id: sessionId });
    expect(again.body.errors?.[0]).toMatchObject({
      message: `Session ${sessionId} is not paused; nothing to unpause`,
      extensions: { code: 'invalid_state' },
    });
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the turn to end', 60_000);
    expect(webhooks.callsTo('/note')).toHaveLength(1);
    expect(model.requests.filter((r) => r.allText.includes('SESSION_DONE') || r.rule === 'session: done')).toHaveLength(1);
    expect((await http('GET', `/api/sessions/${sessionId}/pause`)).body).toEqual({ pause: null });
    expect((await http('POST', '/api/sessions/no-such-session/pause', {})).status).toBe(404);
  }, 120_000);

  it("holds a paused session's CLI sub-agent the same way: its tool call waits, its model calls stop", async () => {
    const created = await http('POST', '/api/sessions', {
      tools: [
        {
          name: 'note',
          description: 'Note something',
          parameters: { type: 'object', properties: { content: { type: 'string' } } },
          handler: { type: 'webhook', url: webhooks.url('/scribe_note') },
        },
      ],
      customAgents: [{ name: 'scribe', description: 'Notes things with note', prompt: 'SCRIBE_P you note things.', tools: ['note'], infer: true }],
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    const scribeCalls = () => requestsOf('SCRIBE_P').length;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'SUB_Q ask the scribe' })).status).toBe(202);
    await model.waitForRequests((r) => r.systemText.includes('SCRIBE_P'), 1, 60_000);
    expect((await http('POST', `/api/sessions/${sessionId}/pause`, {})).status).toBe(200);
    scribeAnswer.open();
    await waitUntil(
      async () => (await http('GET', `/api/sessions/${sessionId}/pause`)).body.pause?.held === 1,
      "the sub-agent's tool call to be held",
      30_000,
    );
    expect(webhooks.callsTo('/scribe_note')).toHaveLength(0);
    expect(scribeCalls()).toBe(1);

    expect((await http('POST', `/api/sessions/${sessionId}/unpause`)).status).toBe(200);
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the turn to end', 60_000);
    expect(webhooks.callsTo('/scribe_note')).toHaveLength(1);
    expect(scribeCalls()).toBe(2);
  }, 120_000);

  it('keeps a run paused across a restart, and a paused run can be stopped', async () => {
    const soloHook = holdFirst('/solo_hook');
    const started = await http('POST', '/api/runs', { agentId: 'solo', prompt: 'Go SOLO.' });
    const soloId = started.body.runId as string;
    await waitUntil(() => webhooks.callsTo('/solo_hook').length === 1, 'the first hook', 90_000);
    expect((await http('POST', `/api/runs/${soloId}/pause`, {})).status).toBe(200);
    const calls = requestsOf('SOLO_P').length;

    await running.restart();
    soloHook.let();
    // The restart interrupted the run; the pause is still there.
    expect(await getRun(soloId)).toMatchObject({ status: 'interrupted', pause: { by: 'api', runId: soloId } });
    expect((await http('POST', `/api/runs/${soloId}/resume`, { prompt: 'Go on SOLO.' })).status).toBe(200);
    await waitUntil(async () => (await getRun(soloId)).pause?.held >= 1, 'the resumed run to be held', 60_000);
    expect(await getRun(soloId)).toMatchObject({ status: 'paused' });
    expect(requestsOf('SOLO_P').length).toBe(calls);

    // Stopping it ends what waited; nothing of it reached the model.
    expect((await http('POST', `/api/runs/${soloId}/stop`, {})).status).toBe(200);
    await untilStatus(soloId, 'stopped');
    await waitUntil(async () => (await getRun(soloId)).pause?.held === 0, 'the held call to end', 30_000);
    expect(requestsOf('SOLO_P').length).toBe(calls);
  }, 180_000);
});

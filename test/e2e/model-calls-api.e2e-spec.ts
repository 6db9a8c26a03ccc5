import { modelPriceTable } from '../../src/config/model-prices';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { endedModelCalls } from '../fixtures/ended-model-calls';
import { FakeCopilotCli } from '../fixtures/fake-copilot-cli';
import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { sendTurn } from '../fixtures/session-turns';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';

const TOKEN = 'model-calls-api-token-0123456789';
/** USD per million tokens: a call of 100 input and 20 output tokens costs 100 * 2 / 1e6 + 20 * 8 / 1e6. */
const PRICES = modelPriceTable('USD', { 'gpt-4.1': { input: 2, output: 8 } });
const CALL_COST = (100 * 2 + 20 * 8) / 1_000_000;
const CALL_FIELDS = 'callId status sessionId agentName runId rootRunId lineagePath model provider inputTokens outputTokens cost currency startedAt';

/**
 * spec: issue 25, Read it. The model-call ledger over REST and GraphQL, on the real app and the real
 * Copilot CLI routing every call through Switchboard: a session's calls a page at a time, a run's own
 * calls against its subtree's, one call with the request and answer it kept, spend sums, and 404s.
 */
describe('model calls over REST and GraphQL (real CLI)', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
  const gql = graphqlHttp(() => running.app.baseUrl, TOKEN);
  let sessionId: string;
  let chiefRunId: string;
  let helperRunId: string;

  beforeAll(async () => {
    await model.start();
    const usage = { prompt_tokens: 100, completion_tokens: 20 };
    model.setScript([
      { name: 'chat first', lastMessageIncludes: 'FIRST_QUESTION', answer: { text: 'FIRST_ANSWER' }, usage },
      { name: 'chat second', lastMessageIncludes: 'SECOND_QUESTION', answer: { text: 'SECOND_ANSWER' }, usage },
      {
        name: 'chief delegates',
        systemIncludes: 'CHIEF_P',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'helper', prompt: 'HELP_TASK' } }] },
        usage,
      },
      { name: 'chief done', systemIncludes: 'CHIEF_P', lastIsToolResult: true, answer: { text: 'CHIEF_DONE' }, usage },
      { name: 'helper answers', systemIncludes: 'HELPER_P', answer: { text: 'HELPER_OUTPUT' }, usage },
    ]);
    running = await startRealCliApp(model, {
      apiToken: TOKEN,
      modelCalls: { route: true, content: 'full', contentMaxBytes: 1_000_000, prices: PRICES },
    });
    for (const [id, marker] of [
      ['chief', 'CHIEF_P'],
      ['helper', 'HELPER_P'],
    ]) {
      const created = await http('POST', '/api/agents', { id, name: id, system_message: { mode: 'append', content: `${marker} agent.` } });
      expect(created.status).toBe(201);
    }

    const session = await http('POST', '/api/sessions', {});
    expect(session.status).toBe(201);
    sessionId = session.body.sessionId;
    await sendTurn(http, sessionId, 'FIRST_QUESTION please');
    await sendTurn(http, sessionId, 'SECOND_QUESTION please');

    const chief = await http('POST', '/api/runs', { agentId: 'chief', prompt: 'Lead the work.', background: false });
    expect(chief.status).toBe(201);
    expect(chief.body).toMatchObject({ status: 'completed', output: 'CHIEF_DONE' });
    chiefRunId = chief.body.runId;
    const runs = (await http('GET', `/api/runs?rootRunId=${chiefRunId}`)).body.runs as Json[];
    helperRunId = runs.find((r) => r.agentId === 'helper')!.runId;
    await endedModelCalls(http, `/api/sessions/${sessionId}/model-calls?limit=500`);
    await endedModelCalls(http, `/api/runs/${chiefRunId}/model-calls?subtree=true&limit=500`);
  }, 180_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  it("pages a session's calls oldest first over REST, with their spend and the route's state", async () => {
    const first = await http('GET', `/api/sessions/${sessionId}/model-calls?limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.calls).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(first.body.modelRoute).toEqual({ routed: true });

    const calls: Json[] = [...first.body.calls];
    let cursor: string | null = first.body.nextCursor;
    while (cursor) {
      const page = await http('GET', `/api/sessions/${sessionId}/model-calls?limit=1&after=${encodeURIComponent(cursor)}`);
      expect(page.status).toBe(200);
      calls.push(...page.body.calls);
      cursor = page.body.nextCursor;
    }
    // One call per turn (each answered at once), in the order they were made, each once.
    const all = (await http('GET', `/api/sessions/${sessionId}/model-calls`)).body;
    expect(all.nextCursor).toBeNull();
    expect(calls.map((c) => c.callId)).toEqual(all.calls.map((c: Json) => c.callId));
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((c) => c.callId)).size).toBe(2);
    expect(calls[0]).toMatchObject({
      status: 'succeeded',
      sessionId,
      agentName: 'main',
      runId: null,
      lineagePath: ['main'],
      model: 'gpt-4.1',
      provider: 'openai',
      inputTokens: 100,
      outputTokens: 20,
      cost: CALL_COST,
      currency: 'USD',
    });
    expect(calls[0].startedAt <= calls[1].startedAt).toBe(true);
    // A list carries no bodies: one call is asked for those.
    expect(calls[0]).not.toHaveProperty('request');
    expect(all.spend).toEqual({ calls: 2, inputTokens: 200, outputTokens: 40, cost: 2 * CALL_COST, currency: 'USD', unpricedCalls: 0 });
  });

  it("lists a run's own calls, or its whole subtree's with subtree=true, over REST", async () => {
    const own = (await http('GET', `/api/runs/${chiefRunId}/model-calls`)).body;
    // The chief called the model twice: to delegate, and after the helper's output came back.
    expect(own.calls).toHaveLength(2);
    for (const call of own.calls)
      expect(call).toMatchObject({ runId: chiefRunId, rootRunId: chiefRunId, agentName: 'chief', sessionId: `sub-agent-${chiefRunId}` });
    expect(own.spend).toMatchObject({ calls: 2, inputTokens: 200 });

    const subtree = (await http('GET', `/api/runs/${chiefRunId}/model-calls?subtree=true`)).body;
    expect(subtree.calls).toHaveLength(3);
    const helperCall = subtree.calls.find((c: Json) => c.runId === helperRunId);
    expect(helperCall).toMatchObject({ rootRunId: chiefRunId, agentName: 'helper', lineagePath: ['chief', 'helper'] });
    expect(subtree.spend).toEqual({ calls: 3, inputTokens: 300, outputTokens: 60, cost: 3 * CALL_COST, currency: 'USD', unpricedCalls: 0 });
    // Oldest first: the helper's call sits between the chief's two.
    expect(subtree.calls.map((c: Json) => c.runId)).toEqual([chiefRunId, helperRunId, chiefRunId]);

    const helperOwn = (await http('GET', `/api/runs/${helperRunId}/model-calls?subtree=true`)).body;
    expect(helperOwn.calls.map((c: Json) => c.callId)).toEqual([helperCall.callId]);

    const paged = (await http('GET', `/api/runs/${chiefRunId}/model-calls?subtree=true&limit=2`)).body;
    expect(paged.calls.map((c: Json) => c.callId)).toEqual(subtree.calls.slice(0, 2).map((c: Json) => c.callId));
    const rest = (await http('GET', `/api/runs/${chiefRunId}/model-calls?subtree=true&limit=2&after=${paged.nextCursor}`)).body;
    expect(rest).toMatchObject({ nextCursor: null, calls: [{ callId: subtree.calls[2].callId }] });
  });

  it('answers one call with the request and the answer it kept', async () => {
    const [call] = (await http('GET', `/api/sessions/${sessionId}/model-calls?limit=1`)).body.calls;
    const one = await http('GET', `/api/model-calls/${call.callId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ ...call, requestTruncated: false, answerTruncated: false });
    expect(one.body.request).toContain('FIRST_QUESTION');
    expect(one.body.answer).toContain('FIRST_ANSWER');
  });

  it('refuses unknown sessions, runs and calls with 404, and a bad cursor or limit with 400', async () => {
    const unknownSession = await http('GET', '/api/sessions/no-such-session/model-calls');
    expect(unknownSession.status).toBe(404);
    expect(unknownSession.body.message).toContain('no-such-session');
    const unknownRun = await http('GET', '/api/runs/no-such-run/model-calls?subtree=true');
    expect(unknownRun.status).toBe(404);
    expect(unknownRun.body.message).toContain('no-such-run');
    const unknownCall = await http('GET', '/api/model-calls/no-such-call');
    expect(unknownCall.status).toBe(404);
    expect(unknownCall.body.message).toContain('no-such-call');

    const badCursor = await http('GET', `/api/sessions/${sessionId}/model-calls?after=not-a-cursor`);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.message).toContain('after');
    expect((await http('GET', `/api/sessions/${sessionId}/model-calls?limit=0`)).status).toBe(400);
    expect((await http('GET', `/api/runs/${chiefRunId}/model-calls?limit=501`)).status).toBe(400);
    expect((await http('GET', `/api/runs/${chiefRunId}/model-calls?subtree=yes`)).status).toBe(400);
  });

  it("pages a session's calls over GraphQL and reads a call's bodies only when asked", async () => {
    const query = `query ($id: ID!, $after: String) {
      session(id: $id) { modelCalls(limit: 1, after: $after) { calls { ${CALL_FIELDS} request answer requestTruncated } nextCursor } modelCallSpend { calls inputTokens outputTokens cost currency unpricedCalls } }
      modelRoute { routed reason }
    }`;
    const first = await gql(query, { id: sessionId });
    expect(first.body.errors).toBeUndefined();
    const { session, modelRoute } = first.body.data;
    expect(modelRoute).toEqual({ routed: true, reason: null });
    expect(session.modelCallSpend).toEqual({ calls: 2, inputTokens: 200, outputTokens: 40, cost: 2 * CALL_COST, currency: 'USD', unpricedCalls: 0 });
    expect(session.modelCalls.calls).toHaveLength(1);
    expect(session.modelCalls.calls[0].request).toContain('FIRST_QUESTION');
    expect(session.modelCalls.calls[0].answer).toContain('FIRST_ANSWER');
    expect(session.modelCalls.calls[0].requestTruncated).toBe(false);

    const second = await gql(query, { id: sessionId, after: session.modelCalls.nextCursor });
    expect(second.body.errors).toBeUndefined();
    const page = second.body.data.session.modelCalls;
    expect(page.nextCursor).toBeNull();
    expect(page.calls[0].request).toContain('SECOND_QUESTION');
    expect(page.calls[0].callId).not.toBe(session.modelCalls.calls[0].callId);

    const one = await gql('query ($id: ID!) { modelCall(id: $id) { callId cost answer } }', { id: page.calls[0].callId });
    expect(one.body.data.modelCall).toMatchObject({ callId: page.calls[0].callId, cost: CALL_COST });
    expect(one.body.data.modelCall.answer).toContain('SECOND_ANSWER');
    expect((await gql('{ modelCall(id: "no-such-call") { callId } }')).body.data.modelCall).toBeNull();
  });

  it("gives a run's own and subtree calls and spend over GraphQL, for every run of a tree at once", async () => {
    const response = await gql(
      `query ($id: ID!) { run(id: $id) {
        runId
        own: modelCalls { calls { callId runId } nextCursor }
        all: modelCalls(subtree: true) { calls { callId runId agentName } }
        ownSpend: modelCallSpend { calls cost }
        subtreeSpend: modelCallSpend(subtree: true) { calls inputTokens cost currency }
        subtree(limit: 10) { runId modelCalls(limit: 10) { calls { runId } } modelCallSpend(subtree: true) { calls } }
      } }`,
      { id: chiefRunId },
    );
    expect(response.body.errors).toBeUndefined();
    const run = response.body.data.run;
    expect(run.own.calls.map((c: Json) => c.runId)).toEqual([chiefRunId, chiefRunId]);
    expect(run.all.calls.map((c: Json) => c.runId)).toEqual([chiefRunId, helperRunId, chiefRunId]);
    expect(run.ownSpend).toEqual({ calls: 2, cost: 2 * CALL_COST });
    expect(run.subtreeSpend).toEqual({ calls: 3, inputTokens: 300, cost: 3 * CALL_COST, currency: 'USD' });
    const helper = run.subtree.find((r: Json) => r.runId === helperRunId);
    expect(helper.modelCalls.calls).toEqual([{ runId: helperRunId }]);
    expect(helper.modelCallSpend).toEqual({ calls: 1 });

    const bad = await gql('query ($id: ID!) { run(id: $id) { modelCalls(after: "nope") { nextCursor } } }', { id: chiefRunId });
    expect(bad.body.errors?.[0].extensions?.code).toBe('invalid_input');
    const tooMany = await gql('query ($id: ID!) { run(id: $id) { modelCalls(limit: 501) { nextCursor } } }', { id: chiefRunId });
    expect(tooMany.status).toBe(400);
  });
});

/**
 * spec: issue 25, Route: a CLI that cannot hand its model calls over (protocol 2) keeps working without
 * the ledger, and the views that would list model calls say so, with the reason.
 */
describe('model-call lists on a CLI that does not route model calls', () => {
  const fake = new FakeCopilotCli({ protocolVersion: 2 });
  let app: RunningApp;
  const dir = makeTempDir();
  const http = jsonHttp(() => app.baseUrl);
  const gql = graphqlHttp(() => app.baseUrl);

  beforeAll(async () => {
    await fake.start();
    const cli = testConfig(dir.dir).cli;
    app = await startTestApp(
      { cli: { ...cli, url: fake.url, provider: { type: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'unused' } } },
      dir.dir,
    );
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await fake.stop();
    dir.cleanup();
  });

  it('answers an empty list that says the calls are not routed and why, over REST and GraphQL', async () => {
    const session = await http('POST', '/api/sessions', {});
    expect(session.status).toBe(201);
    const list = await http('GET', `/api/sessions/${session.body.sessionId}/model-calls`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ calls: [], nextCursor: null, modelRoute: { routed: false, reason: expect.stringContaining('protocol') } });

    const route = await gql('{ modelRoute { routed reason } }');
    expect(route.body.data.modelRoute).toEqual(list.body.modelRoute);
  });
});

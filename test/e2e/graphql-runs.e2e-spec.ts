import type { Client } from 'graphql-ws';
import { graphqlHttp, GraphqlSubscription, graphqlWs } from '../fixtures/graphql-client';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'graphql-runs-token-0123456789';
const RUN_FIELDS =
  'runId agentId status background output depth parentRunId epoch stoppedBy usage { own { totalTokens toolCalls } subtree { runs totalTokens } }';

interface RunEvent {
  runEvents: { globalPosition: number; streamId: string; type: string };
}

/**
 * spec: sub-agent-delegation over GraphQL on the real Copilot CLI: agentRun / agentStop / resumeRun
 * mutations, and a runEvents subscription opened mid-run that sees every later event of the run tree once.
 */
describe('GraphQL run mutations and runEvents on the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  let client: Client;
  let stallHelper = true;
  const gql = graphqlHttp(() => running.app.baseUrl, TOKEN);
  const http = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });

  beforeAll(async () => {
    await model.start();
    model.setScript([
      { name: 'quick answers', systemIncludes: 'QUICK_P', answer: { text: 'QUICK_OUTPUT' } },
      {
        name: 'chief delegates',
        systemIncludes: 'CHIEF_P',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'helper', prompt: 'HELP_TASK', background: true } }] },
      },
      { name: 'chief done', systemIncludes: 'CHIEF_P', lastIsToolResult: true, answer: { text: 'CHIEF_WAITING' } },
      { name: 'helper stalls', systemIncludes: 'HELPER_P', when: () => stallHelper, answer: { hang: true } },
      { name: 'helper answers', systemIncludes: 'HELPER_P', answer: { text: 'HELPER_OUTPUT' }, delayMs: 500 },
    ]);
    running = await startRealCliApp(model, { apiToken: TOKEN });
    client = graphqlWs(running.app.baseUrl, TOKEN);
    for (const [id, marker] of [
      ['quick', 'QUICK_P'],
      ['chief', 'CHIEF_P'],
      ['helper', 'HELPER_P'],
    ]) {
      const created = await gql('mutation ($input: CreateAgentInput!) { createAgent(input: $input) { id } }', {
        input: { id, name: id, systemMessage: { mode: 'append', content: `${marker} agent.` } },
      });
      expect(created.body.errors).toBeUndefined();
    }
  }, 60_000);

  afterAll(async () => {
    await client?.dispose();
    await running?.close();
    await model.stop();
  });

  it('agentRun in the foreground answers with the completed run, its output and usage', async () => {
    const response = await gql(`mutation ($input: AgentRunInput!) { agentRun(input: $input) { ${RUN_FIELDS} } }`, {
      input: { agentId: 'quick', prompt: 'Be quick.', background: false },
    });
    expect(response.body.errors).toBeUndefined();
    const run = response.body.data.agentRun;
    expect(run).toMatchObject({ agentId: 'quick', status: 'completed', background: false, output: 'QUICK_OUTPUT', depth: 0, epoch: 1 });
    expect(run.usage.own.totalTokens).toBeGreaterThan(0);
    expect(run.usage.subtree).toMatchObject({ runs: 1, totalTokens: run.usage.own.totalTokens });
  }, 60_000);

  it('streams a run tree opened mid-run: every later event of the root and its child, once, in order', async () => {
    const chief = (
      await gql(`mutation ($input: AgentRunInput!) { agentRun(input: $input) { ${RUN_FIELDS} } }`, { input: { agentId: 'chief', prompt: 'Lead.' } })
    ).body.data.agentRun;
    expect(chief).toMatchObject({ status: 'running', background: true });
    await waitUntil(() => model.requests.some((r) => r.rule === 'helper stalls'), 'the child to be working', 60_000);

    const events = new GraphqlSubscription<RunEvent>(
      client,
      'subscription ($id: ID!) { runEvents(runId: $id, includeDescendants: true) { globalPosition streamId type } }',
      { id: chief.runId },
    ).start();
    await events.waitFor((v) => v.some((e) => e.runEvents.type === 'run.completed'), 'the chief to complete', 60_000);
    const helperId = ((await http('GET', `/api/runs?rootRunId=${chief.runId}`)).body.runs as Json[]).find((r) => r.agentId === 'helper').runId;

    stallHelper = false;
    const stop = await gql('mutation ($id: ID!) { agentStop(runId: $id, reason: "retry it") { stoppedRuns run { status stoppedBy } } }', { id: helperId });
    expect(stop.body.data.agentStop).toEqual({
      stoppedRuns: [helperId],
      run: {
        status: 'stopped',
        stoppedBy: { actor: 'api', reason: 'retry it', forced: false, by: { kind: 'key', id: 'operator', name: 'operator', via: 'api' } },
      },
    });
    const resumed = await gql(`mutation ($id: ID!) { resumeRun(runId: $id) { ${RUN_FIELDS} } }`, { id: helperId });
    expect(resumed.body.data.resumeRun).toMatchObject({ status: 'running', epoch: 2, parentRunId: chief.runId, depth: 1 });
    const seen = await events.waitFor(
      (v) => v.some((e) => e.runEvents.streamId === `run-${helperId}` && e.runEvents.type === 'run.completed'),
      'the resumed child to complete',
      60_000,
    );
    events.stop();

    // Exactly the log's events of the four streams (two runs, two threads), each once, in log order.
    const streams = [`run-${chief.runId}`, `session-sub-agent-${chief.runId}`, `run-${helperId}`, `session-sub-agent-${helperId}`];
    const logged: number[] = [];
    for (const stream of streams) {
      const page = (await http('GET', `/api/streams/${stream}/events?limit=1000`)).body;
      logged.push(...(page.events as Json[]).map((e: Json) => e.globalPosition));
    }
    const last = seen.at(-1)!.runEvents.globalPosition;
    const positions = seen.map((e) => e.runEvents.globalPosition);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(positions).toEqual(logged.filter((p) => p <= last).sort((a, b) => a - b));
    expect(seen.map((e) => e.runEvents.type)).toContain('run.resumed');
    expect((await gql(`query ($id: ID!) { run(id: $id) { output status } }`, { id: helperId })).body.data.run).toEqual({
      output: 'HELPER_OUTPUT',
      status: 'completed',
    });
  }, 120_000);

  it('refuses bad run input and unknown runs with the REST codes', async () => {
    const bad = await gql('mutation { agentRun(input: { agentId: "quick", prompt: "  " }) { runId } }');
    expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_input' });
    const unknownAgent = await gql('mutation { agentRun(input: { agentId: "nobody", prompt: "x" }) { runId } }');
    expect(unknownAgent.body.errors?.[0].extensions).toMatchObject({ code: 'unknown_agent' });
    const unknownRun = await gql('mutation { agentStop(runId: "no-such-run") { stoppedRuns } }');
    expect(unknownRun.body.errors?.[0].extensions).toMatchObject({ code: 'unknown_run', statusCode: 404 });
    const sub = new GraphqlSubscription(client, 'subscription { runEvents(runId: "no-such-run") { type } }').start();
    await sub.waitForEnd();
    expect(JSON.stringify(sub.errors)).toContain('no-such-run');
  });
});

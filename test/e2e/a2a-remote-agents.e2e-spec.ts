import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN_A = 'remote-a-token-0123456789';
const TOKEN_B = 'remote-b-token-0123456789';

/**
 * issue 43, delegating out: two Switchboard services on one machine, each on the real Copilot CLI with the
 * scripted model. The first (A) has remote agents whose cards are the second's (B) A2A agents, and the
 * operator's token for B (SWITCHBOARD_A2A_CREDENTIALS). A lead on A delegates to a remote agent: B runs
 * its own agent, and A records the remote task as a run in the lead's tree with B's output; stopping A's
 * tree cancels the task on B (B's run is stopped); a restart of A while a remote task runs follows it
 * again instead of interrupting it.
 */
describe('delegating to an agent on another service over A2A', () => {
  const model = new ScriptedModelServer();
  let serviceA: RealCliApp;
  let serviceB: RealCliApp;
  let a: JsonHttp;
  let b: JsonHttp;
  const releases: Array<() => void> = [];
  const held = () => new Promise((resolve) => releases.push(() => resolve(undefined)));
  let releaseSlow: () => void = () => undefined;

  const cardOf = (agentId: string) => `${serviceB.app.baseUrl}/a2a/${agentId}/.well-known/agent-card.json`;

  async function runOnA(agentId: string, prompt: string): Promise<string> {
    const started = await a('POST', '/api/runs', { agentId, prompt, background: true });
    expect(started.status).toBe(201);
    return started.body.runId as string;
  }

  async function settledOnA(runId: string, timeoutMs = 90_000): Promise<Json> {
    return waitUntil(
      async () => {
        const run = (await a('GET', `/api/runs/${runId}`)).body;
        return run.status !== 'running' && run;
      },
      `run ${runId} on A to end`,
      timeoutMs,
    );
  }

  /** The remote child of `rootId` on A, once its task was sent to B. */
  async function remoteChildOnA(rootId: string, agentId: string): Promise<Json> {
    return waitUntil(
      async () => {
        const runs = (await a('GET', `/api/runs?rootRunId=${rootId}`)).body.runs as Json[];
        const child = runs.find((r) => r.agentId === agentId);
        return child?.remote?.taskId ? child : undefined;
      },
      `A's ${agentId} run to link its remote task`,
      60_000,
    );
  }

  beforeAll(async () => {
    await model.start();
    const slow = held();
    releaseSlow = releases[0];
    model.setScript([
      {
        name: 'lead delegates to the remote researcher',
        systemIncludes: 'LEAD_R',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'remote-researcher', prompt: 'RESEARCH the topic', background: false } }] },
      },
      { name: 'lead answers', systemIncludes: 'LEAD_R', lastIsToolResult: true, answer: { text: 'LEAD_R_SAYS_DONE' } },
      {
        name: 'waiting lead delegates to the remote slow agent',
        systemIncludes: 'LEAD_S',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'remote-slow', prompt: 'THINK hard', background: false } }] },
      },
      { name: 'waiting lead answers', systemIncludes: 'LEAD_S', lastIsToolResult: true, answer: { text: 'LEAD_S_SAYS_DONE' } },
      { name: 'researcher on B answers', systemIncludes: 'RESEARCHER_B', answer: { text: 'RESEARCHER_B_FOUND_42' } },
      { name: 'slow agent on B thinks', systemIncludes: 'SLOW_B', until: slow, answer: { text: 'SLOW_B_DONE' } },
    ]);

    serviceB = await startRealCliApp(model, { apiToken: TOKEN_B });
    b = jsonHttp(() => serviceB.app.baseUrl, { authorization: `Bearer ${TOKEN_B}` });
    for (const agent of [
      { id: 'researcher', name: 'Researcher', description: 'Finds things out', system_message: { mode: 'append', content: 'RESEARCHER_B you research.' } },
      { id: 'slow', name: 'Slow thinker', description: 'Takes its time', system_message: { mode: 'append', content: 'SLOW_B you think.' } },
    ]) {
      expect((await b('POST', '/api/agents', agent)).status).toBe(201);
    }

    // A holds the operator's token for B's origin: no API caller ever names it.
    const originB = new URL(serviceB.app.baseUrl).origin;
    serviceA = await startRealCliApp(model, { apiToken: TOKEN_A, a2a: { credentials: { [originB]: TOKEN_B }, pollMs: 100, secretsKey: undefined } });
    a = jsonHttp(() => serviceA.app.baseUrl, { authorization: `Bearer ${TOKEN_A}` });
    for (const agent of [
      { id: 'remote-researcher', name: 'Remote researcher', description: 'Researches, on service B', remote: { a2a: cardOf('researcher') } },
      { id: 'remote-slow', name: 'Remote slow thinker', description: 'Thinks, on service B', remote: { a2a: cardOf('slow') } },
      {
        id: 'lead',
        name: 'Lead',
        description: 'Leads the research',
        sub_agents: ['remote-researcher'],
        system_message: { mode: 'append', content: 'LEAD_R you delegate.' },
      },
      {
        id: 'waiting-lead',
        name: 'Waiting lead',
        description: 'Waits on a slow thinker',
        sub_agents: ['remote-slow'],
        system_message: { mode: 'append', content: 'LEAD_S you delegate.' },
      },
    ]) {
      const saved = await a('POST', '/api/agents', agent);
      expect(saved.status).toBe(201);
    }
  }, 120_000);

  afterAll(async () => {
    for (const release of releases) release();
    await serviceA?.close();
    await serviceB?.close();
    await model.stop();
  });

  it('registers a remote agent by its card, and refuses one that also configures an agent running here', async () => {
    const saved = (await a('GET', '/api/agents/remote-researcher')).body;
    expect(saved).toMatchObject({ remote: { a2a: cardOf('researcher') }, composable: true, composable_reasons: [] });

    const configured = await a('POST', '/api/agents', {
      id: 'remote-with-prompt',
      name: 'Remote with a prompt',
      description: 'x',
      remote: { a2a: cardOf('researcher') },
      system_message: { mode: 'append', content: 'You research.' },
    });
    expect(configured.status).toBe(422);
    expect(configured.body).toMatchObject({ code: 'invalid_remote_agent' });
    expect(configured.body.message).toContain('system_message.content configures an agent that runs here');

    const metadata = await a('POST', '/api/agents', {
      id: 'remote-metadata',
      name: 'Metadata',
      description: 'x',
      remote: { a2a: 'http://169.254.169.254/card.json' },
    });
    expect(metadata.status).toBe(422);
    expect(metadata.body.message).toContain('remote.a2a: the URL is refused by the outbound guard');

    const session = await a('POST', '/api/sessions', { agentId: 'remote-researcher' });
    expect(session.status).toBe(422);
    expect(JSON.stringify(session.body)).toContain('runs on its remote service');
  });

  it("runs a lead whose sub-agent lives on the other service: one tree on A with B's task in it, B's own run behind it", async () => {
    const rootId = await runOnA('lead', 'What is the answer?');
    const root = await settledOnA(rootId);
    expect(root).toMatchObject({ status: 'completed', output: 'LEAD_R_SAYS_DONE' });
    // The lead's model was given the remote agent's answer as agent_run's result.
    expect(model.requests.some((r) => r.systemText.includes('LEAD_R') && r.lastIsToolResult && r.allText.includes('RESEARCHER_B_FOUND_42'))).toBe(true);

    const child = await remoteChildOnA(rootId, 'remote-researcher');
    expect(child).toMatchObject({
      status: 'completed',
      output: 'RESEARCHER_B_FOUND_42',
      parentRunId: rootId,
      remote: { a2a: cardOf('researcher'), service: 'Researcher' },
    });

    // B's task is B's run, started over A2A by A with the operator's token for B.
    const onB = (await b('GET', `/api/runs/${child.remote.taskId}`)).body;
    expect(onB).toMatchObject({ status: 'completed', agentId: 'researcher', output: 'RESEARCHER_B_FOUND_42', a2aContextId: child.remote.contextId });
    const startedOnB = ((await b('GET', `/api/streams/run-${child.remote.taskId}/events`)).body.events as Json[]).find((e) => e.type === 'run.started');
    expect(startedOnB?.metadata.by).toMatchObject({ via: 'a2a' });

    // A's run stream records the link; the console's GraphQL names the service.
    const events = (await a('GET', `/api/streams/run-${child.runId}/events`)).body.events as Json[];
    expect(events.map((e) => e.type)).toEqual(['run.started', 'run.remote_task_linked', 'run.remote_usage_reported', 'run.completed']);
    // What B's task said it used (its metadata, as Switchboard's A2A tasks report it) is on A's run.
    expect(child.remote.usage.totalTokens).toBeGreaterThan(0);
    expect(child.remote.usage.totalTokens).toBe(onB.subtreeUsage.totalTokens);
    const graph = await a('POST', '/graphql', { query: `{ run(id: "${child.runId}") { remote { service taskId a2a reportedTokens } } }` });
    expect(graph.body.data.run.remote).toEqual({
      service: 'Researcher',
      taskId: child.remote.taskId,
      a2a: cardOf('researcher'),
      reportedTokens: child.remote.usage.totalTokens,
    });
  }, 150_000);

  it("stopping A's tree cancels the remote task: B's run is stopped too", async () => {
    const rootId = await runOnA('waiting-lead', 'Think it over');
    const child = await remoteChildOnA(rootId, 'remote-slow');
    await waitUntil(async () => (await b('GET', `/api/runs/${child.remote.taskId}`)).body.status === 'running' && true, "B's run to be running");

    const stop = await a('POST', `/api/runs/${rootId}/stop`, { reason: 'no longer needed' });
    expect(stop.status).toBe(200);
    expect((await a('GET', `/api/runs/${child.runId}`)).body).toMatchObject({ status: 'stopped', stoppedBy: { cascadeFrom: rootId } });
    const onB = await waitUntil(
      async () => {
        const run = (await b('GET', `/api/runs/${child.remote.taskId}`)).body;
        return run.status !== 'running' && run;
      },
      "B's run to stop",
      30_000,
    );
    expect(onB.status).toBe('stopped');
  }, 150_000);

  it('a restart of A while the remote task runs follows it again, and the run completes with its output', async () => {
    const slowAgain = held();
    model.setScript([{ name: 'slow agent on B thinks again', systemIncludes: 'SLOW_B', until: slowAgain, answer: { text: 'SLOW_B_DONE_AFTER_RESTART' } }]);
    const runId = await runOnA('remote-slow', 'Think, however long it takes');
    const linked = await waitUntil(
      async () => {
        const run = (await a('GET', `/api/runs/${runId}`)).body;
        return run.remote?.taskId ? run : undefined;
      },
      "A's run to link its remote task",
      60_000,
    );

    await serviceA.restart();
    const afterRestart = (await a('GET', `/api/runs/${runId}`)).body;
    expect(afterRestart.status).toBe('running');

    releases[releases.length - 1]();
    const ended = await settledOnA(runId);
    expect(ended).toMatchObject({ status: 'completed', output: 'SLOW_B_DONE_AFTER_RESTART', remote: { taskId: linked.remote.taskId } });
    // Nothing was sent twice: B ran one task for it.
    const events = ((await a('GET', `/api/streams/run-${runId}/events`)).body.events as Json[]).map((e) => e.type);
    expect(events).toEqual(['run.started', 'run.remote_task_linked', 'run.remote_task_linked', 'run.remote_usage_reported', 'run.completed']);
    releaseSlow();
  }, 150_000);
});

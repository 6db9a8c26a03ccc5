import { loadConfig } from '../../src/config/switchboard-config';
import { appStoreTargets } from '../fixtures/app-store-targets';
import { endedModelCalls } from '../fixtures/ended-model-calls';
import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

/** What a tree did, in order: each run's agent, the tools its agent called and its output (ids left out). */
interface Step {
  depth: number;
  agentId: string;
  status: string;
  output: string | null;
  tools: string[];
}

/**
 * issue 26, Replay and Fork, on the real Copilot CLI whose model calls go through Switchboard: a
 * two-level run (a lead that delegates to a worker with agent_run and uses its answer) is forked at a
 * model call, where exactly the calls from that one on reach the scripted model and the fork's output
 * follows the fork's message; then, with the model server stopped, replayed: the same steps, answered
 * from the record, 0 requests at the model. On SQLite and PostgreSQL.
 */
describe.each(appStoreTargets())('replay and fork of a run tree (real CLI, %s)', (_store, target) => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  const consoleHttp: JsonHttp = (...args) => jsonHttp(() => running.app.baseUrl, { 'x-switchboard-client': 'console' })(...args);
  let originalRunId: string;

  beforeAll(async () => {
    await model.start();
    model.setScript([
      { name: 'a run that waits', messagesInclude: 'HANG_ME', answer: { hang: true } },
      {
        name: 'the sheller runs a command',
        systemIncludes: 'SHELLER_P',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'bash', arguments: { command: 'echo SIDE_$((40+2))', description: 'print a number' } }] },
      },
      { name: 'the sheller reports', systemIncludes: 'SHELLER_P', lastIsToolResult: true, answer: { text: 'SHELL_DONE' } },
      {
        name: 'the chat delegates to the sheller',
        messagesInclude: 'SCENARIO_SHELL',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'sheller', prompt: 'Run it.' } }] },
      },
      { name: 'the chat wraps up', messagesInclude: 'SCENARIO_SHELL', lastIsToolResult: true, answer: { text: 'CHAT_DONE' } },
      { name: 'lead after a fork message', systemIncludes: 'LEAD_P', messagesInclude: 'FORK_MESSAGE', answer: { text: 'LEAD_FORKED' } },
      { name: 'lead wraps up', systemIncludes: 'LEAD_P', lastIsToolResult: true, answer: { text: 'LEAD_DONE with the worker' } },
      {
        name: 'lead delegates',
        systemIncludes: 'LEAD_P',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'Find FACT.' } }] },
      },
      { name: 'worker answers', systemIncludes: 'WORKER_P', answer: { text: 'FACT=42' } },
    ]);
    // Host permissions on: the original's policy may allow shell, which its replay then denies.
    running = await startRealCliApp(
      model,
      {
        modelCalls: { route: true, content: 'full', contentMaxBytes: 1 << 20, prices: undefined },
        security: { ...loadConfig({}).security, allowHostPermissions: true },
      },
      target,
    );
    for (const agent of [
      { id: 'worker', name: 'Worker', description: 'Finds facts', system_message: { mode: 'append', content: 'WORKER_P you find facts.' } },
      { id: 'sheller', name: 'Sheller', description: 'Runs commands', system_message: { mode: 'append', content: 'SHELLER_P you run commands.' } },
      { id: 'lead', name: 'Lead', system_message: { mode: 'append', content: 'LEAD_P you delegate.' }, sub_agents: ['worker'] },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
    const started = await http('POST', '/api/runs', { agentId: 'lead', prompt: 'Go.', background: false });
    expect(started.body).toMatchObject({ status: 'completed' });
    originalRunId = started.body.runId as string;
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  const ended = (runId: string) =>
    waitUntil(
      async () => {
        const runs = (await http('GET', `/api/runs?rootRunId=${runId}&limit=500`)).body.runs as Json[];
        return runs.length > 0 && runs.every((r) => r.status !== 'running') && runs;
      },
      `every run of ${runId}'s tree to end`,
      60_000,
    );

  /** The tree's steps: each run in path order with its agent's tool calls (from its session's recorded CLI events). */
  async function steps(rootRunId: string): Promise<Step[]> {
    const runs = (await ended(rootRunId)).sort((a, b) => a.depth - b.depth || String(a.startedAt).localeCompare(String(b.startedAt)));
    const out: Step[] = [];
    for (const run of runs) {
      const events = (await http('GET', `/api/streams/session-${run.threadId}/events?limit=1000`)).body;
      const tools = ((events.events ?? events) as Json[])
        .filter((e) => e.type === 'cli.tool.execution_start')
        .map((e) => String(e.data.payload?.toolName ?? e.data.toolName));
      out.push({ depth: run.depth, agentId: run.agentId, status: run.status, output: run.output, tools });
    }
    return out;
  }

  const callsOf = (runId: string): Promise<Json[]> => endedModelCalls(http, `/api/runs/${runId}/model-calls?subtree=true&limit=500`);

  it('refuses a replay of a running run (409 naming its status), of an unknown run, and a fork from an unknown call', async () => {
    const busy = await http('POST', '/api/runs', { agentId: 'worker', prompt: 'HANG_ME' });
    const busyId = busy.body.runId as string;
    await model.waitForRequests((r) => r.allText.includes('HANG_ME'));
    const refused = await http('POST', `/api/runs/${busyId}/replay`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('is running');
    expect((await http('POST', `/api/runs/${busyId}/stop`, {})).status).toBe(200);
    expect((await http('POST', '/api/runs/no-such-run/replay', {})).status).toBe(404);
    const unknownCall = await http('POST', `/api/runs/${originalRunId}/fork`, { fromModelCall: 'no-such-call' });
    expect(unknownCall.status).toBe(404);
    expect((await http('POST', `/api/runs/${originalRunId}/fork`, { fromModelCall: 'x', extra: 1 })).status).toBe(400);
  });

  it("denies a replayed shell command the original's policy allowed, saying why, and never asks a person", async () => {
    const { sessionId } = (await http('POST', '/api/sessions', { delegation: true, permissionPolicy: { allowKinds: ['shell'] } })).body;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'SCENARIO_SHELL go' })).status).toBeLessThan(300);
    const sheller = await waitUntil(
      async () => {
        const run = ((await http('GET', '/api/runs?agentId=sheller')).body.runs as Json[])[0];
        return run?.status === 'completed' && run;
      },
      'the sheller run to complete',
      60_000,
    );
    const decisions = async (runId: string) => {
      const events = (await http('GET', `/api/streams/session-sub-agent-${runId}/events?limit=1000`)).body;
      return ((events.events ?? events) as Json[]).filter((e) => e.type === 'permission.decided').map((e) => e.data);
    };
    expect(await decisions(sheller.runId as string)).toEqual([expect.objectContaining({ outcome: 'approved' })]);

    const replay = await http('POST', `/api/runs/${sheller.runId}/replay`, { background: false });
    expect(replay.status).toBe(201);
    await ended(replay.body.runId as string);
    expect(await decisions(replay.body.runId as string)).toEqual([
      expect.objectContaining({
        outcome: 'denied',
        reason: 'a replay does not repeat side effects (allow_side_effects: true lets it)',
        decidedBy: 'switchboard',
      }),
    ]);
    // The denied command's result is not the recorded one: the replay stops at the sheller's next call.
    const view = (await http('GET', `/api/runs/${replay.body.runId}`)).body;
    expect(view).toMatchObject({ status: 'stopped', replay: { divergence: { agentName: 'sheller', position: 2, divergence: { part: 'messages' } } } });
    expect((await http('GET', '/api/approvals?status=pending')).body.approvals ?? []).toHaveLength(0);
  }, 120_000);

  it('forks at a model call: exactly the calls from that one on reach the model, and the output follows the message', async () => {
    const original = await steps(originalRunId);
    expect(original.map((s) => [s.agentId, s.output])).toEqual([
      ['lead', 'LEAD_DONE with the worker'],
      ['worker', 'FACT=42'],
    ]);
    const calls = await callsOf(originalRunId);
    const leadCalls = calls.filter((c) => c.agentName === 'lead').sort((a, b) => String(a.startedAt).localeCompare(String(b.startedAt)));
    expect(leadCalls).toHaveLength(2);
    const before = model.requests.length;
    // Call k = the lead's second call (after the worker answered): the lead's first and the worker's are played back.
    const fork = await consoleHttp('POST', `/api/runs/${originalRunId}/fork`, {
      from_model_call: leadCalls[1].callId,
      message: 'FORK_MESSAGE: say so.',
      background: false,
    });
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({
      status: 'completed',
      output: 'LEAD_FORKED',
      forkedFrom: { runId: originalRunId, modelCallId: leadCalls[1].callId },
    });
    const forkSteps = await steps(fork.body.runId as string);
    expect(forkSteps.map((s) => [s.agentId, s.output])).toEqual([
      ['lead', 'LEAD_FORKED'],
      ['worker', 'FACT=42'],
    ]);
    const sent = model.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].allText).toContain('FORK_MESSAGE');

    const view = (await http('GET', `/api/runs/${fork.body.runId}`)).body;
    expect(view).toMatchObject({
      replayOf: originalRunId,
      forkedFrom: { runId: originalRunId, modelCallId: leadCalls[1].callId },
      replay: { mode: 'fork', requestedBy: 'console' },
    });
    // Lineage both ways: the original lists its fork.
    const originalView = (await http('GET', `/api/runs/${originalRunId}`)).body;
    expect(originalView.replays).toEqual(expect.arrayContaining([expect.objectContaining({ runId: fork.body.runId, mode: 'fork' })]));
    // Who asked is on the new run's start, and the audit log shows it.
    const runEvents = (await http('GET', `/api/streams/run-${fork.body.runId}/events?limit=10`)).body;
    const startEvent = ((runEvents.events ?? runEvents) as Json[]).find((e) => e.type === 'run.started');
    expect(startEvent?.metadata?.actor).toBe('console');
    const audited = await waitUntil(
      async () => {
        const entries = (await http('GET', `/api/audit?runId=${fork.body.runId}&eventKind=run&limit=100`)).body.entries as Json[];
        return entries.find((e) => e.eventType === 'run.started');
      },
      'the fork start in the audit log',
      20_000,
    );
    expect(audited.actor).toBe('console');
    expect(startEvent?.data.replay).toMatchObject({ of: originalRunId, mode: 'fork', fromModelCall: leadCalls[1].callId, requestedBy: 'console' });
    // GraphQL shows the same lineage, both ways.
    const gql = graphqlHttp(() => running.app.baseUrl);
    const { body } = await gql(
      `query($id: ID!, $original: ID!) {
        fork: run(id: $id) { replayOf forkedFrom { runId modelCallId } replay { mode message requestedBy } }
        original: run(id: $original) { replays { runId } }
      }`,
      { id: fork.body.runId, original: originalRunId },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.fork).toEqual({
      replayOf: originalRunId,
      forkedFrom: { runId: originalRunId, modelCallId: leadCalls[1].callId },
      replay: { mode: 'fork', message: 'FORK_MESSAGE: say so.', requestedBy: 'console' },
    });
    expect(body.data.original.replays).toContainEqual({ runId: fork.body.runId });
  }, 120_000);

  it('replays the tree with the model server stopped: the same steps, every call from the record, 0 requests at the model', async () => {
    const original = await steps(originalRunId);
    await model.stop();
    const before = model.requests.length;
    const replay = await http('POST', `/api/runs/${originalRunId}/replay`, { background: false });
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ status: 'completed', replayOf: originalRunId });
    const replaySteps = await steps(replay.body.runId as string);
    expect(replaySteps).toEqual(original);
    expect(model.requests.length - before).toBe(0);
    const calls = await callsOf(replay.body.runId as string);
    expect(calls.length).toBe((await callsOf(originalRunId)).length);
    const view = (await http('GET', `/api/runs/${replay.body.runId}`)).body;
    expect(view).toMatchObject({ replayOf: originalRunId, replay: { mode: 'replay', onDivergence: 'stop', allowSideEffects: false, divergence: null } });
    // The child run of the replay maps to the original's child.
    const tree = (await http('GET', `/api/runs/${replay.body.runId}/tree`)).body;
    const originalTree = (await http('GET', `/api/runs/${originalRunId}/tree`)).body;
    expect(tree.children[0].replayOf).toBe(originalTree.children[0].runId);
    // The original's tree lists its replays and forks beside it.
    expect(originalTree.replays).toEqual(
      expect.arrayContaining([expect.objectContaining({ runId: replay.body.runId, mode: 'replay', status: 'completed' })]),
    );
  }, 120_000);

  it("reports the first differing call after a sub-agent's prompt was edited, with both versions, and stops the replay tree there", async () => {
    const worker = (await http('GET', '/api/agents/worker')).body;
    const edited = await http('PUT', '/api/agents/worker', {
      ...worker,
      system_message: { mode: 'append', content: 'WORKER_P you find facts. EDITED_LINE' },
    });
    expect(edited.status).toBe(200);
    const before = model.requests.length;
    // Through GraphQL this time, from the console.
    const gql = graphqlHttp(() => running.app.baseUrl);
    const replay = await gql(
      'mutation($id: ID!) { replayRun(runId: $id, background: false) { runId replayOf } }',
      { id: originalRunId },
      {
        'x-switchboard-client': 'console',
      },
    );
    expect(replay.body.errors).toBeUndefined();
    const replayRunId = replay.body.data.replayRun.runId as string;
    expect(replay.body.data.replayRun.replayOf).toBe(originalRunId);
    await ended(replayRunId);
    const view = (await http('GET', `/api/runs/${replayRunId}`)).body;
    expect(view).toMatchObject({
      status: 'stopped',
      stoppedBy: { actor: 'replay', reason: 'replay_diverged', message: expect.stringContaining('worker') },
      replay: { mode: 'replay', onDivergence: 'stop', requestedBy: 'console', divergence: { agentName: 'worker', divergence: { part: 'system' } } },
    });
    const { divergence } = view.replay.divergence;
    expect(divergence.now).toContain('EDITED_LINE');
    expect(divergence.original).not.toContain('EDITED_LINE');
    // The lead's call before it was played back; nothing reached the (stopped) model.
    expect(model.requests.length - before).toBe(0);
  }, 120_000);
});

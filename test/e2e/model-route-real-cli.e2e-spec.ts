import * as fs from 'node:fs';
import { CopilotCliConnection } from '../../src/copilot-cli/copilot-cli-connection';
import { type CliWireTap, cliWireTap, secretForms } from '../fixtures/cli-wire-tap';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { processTree } from '../fixtures/process-tree';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'model-route-token-0123456789';
const PROVIDER_KEY = 'sk-provider-key-never-in-the-cli-4f1c';

/**
 * spec: issue 25, Route and Record. The real Copilot CLI hands every model call to Switchboard
 * (`llmInference.setProvider`), which forwards it to the provider with its own key, streams the answer
 * back and keeps each call as a `model_call-<id>` stream, attributed to the session, the CLI sub-agent,
 * the run and its root. The CLI runs behind a tap that copies its JSON-RPC wire to files: the key never
 * crosses it, in either direction.
 */
describe('model calls routed through Switchboard (real CLI)', () => {
  const model = new ScriptedModelServer();
  const tapDir = makeTempDir('switchboard-cli-tap-');
  let tap: CliWireTap;
  let running: RealCliApp;
  const http = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });

  beforeAll(async () => {
    await model.start();
    tap = cliWireTap(tapDir.dir);
    running = await startRealCliApp(model, {
      apiToken: TOKEN,
      cli: { provider: { type: 'openai', baseUrl: model.baseUrl, apiKey: PROVIDER_KEY }, path: tap.command } as never,
    });
  }, 90_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    tapDir.cleanup();
  });

  async function turn(sessionId: string, prompt: string): Promise<void> {
    const sent = await http('POST', `/api/sessions/${sessionId}/messages`, { prompt });
    expect(sent.status).toBe(202);
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the turn to end', 60_000);
    // A call's end is recorded beside its answer, not before it (the CLI is never kept waiting on a commit),
    // so the turn can be over a moment before the ledger is: read it once every call has its end.
    await waitUntil(async () => everyCallEnded(await callEvents()), 'every model call of the turn to be recorded ended', 10_000);
  }

  function everyCallEnded(events: Json[]): boolean {
    const ended = new Set(events.filter((e) => e.type !== 'model_call.started').map((e) => e.streamId));
    return events.every((e) => e.type !== 'model_call.started' || ended.has(e.streamId));
  }

  async function callEvents(): Promise<Json[]> {
    const events: Json[] = [];
    for (let after = 0; ;) {
      const page = (await http('GET', `/api/events?after=${after}&limit=1000`)).body;
      events.push(...(page.events as Json[]));
      if (page.events.length < 1000) break;
      after = Number(page.nextAfter);
    }
    return events.filter((e) => String(e.streamId).startsWith('model_call-'));
  }

  /** Every event of the calls made by the CLI session `sessionId`, by call. */
  async function callsOf(sessionId: string): Promise<{ started: Json; ended: Json[] }[]> {
    const events = await callEvents();
    return events
      .filter((e) => e.type === 'model_call.started' && e.data.sessionId === sessionId)
      .map((started) => ({ started, ended: events.filter((e) => e.streamId === started.streamId && e.type !== 'model_call.started') }));
  }

  it('sends each call to the provider with Switchboard’s key, streams the answer chunk by chunk, and records it', async () => {
    // Three content chunks (the server cuts text at 40 characters) far enough apart that no reader merges them.
    const words = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen';
    model.setScript([{ name: 'answer', answer: { text: words }, chunkDelayMs: 150 }]);
    const created = await http('POST', '/api/sessions', {});
    expect(created.status).toBe(201);
    const { sessionId } = created.body;
    await turn(sessionId, 'Say five words');

    const cli = running.app.app.get(CopilotCliConnection);
    expect(cli.modelRoute()).toEqual({ routed: true });
    // The provider saw Switchboard's key on every call; the CLI was given none.
    const chats = model.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chats.length).toBeGreaterThan(0);
    for (const request of chats) expect(request.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);

    const events = await callEvents();
    const started = events.filter((e) => e.type === 'model_call.started' && e.data.sessionId === sessionId);
    const finished = events.filter((e) => e.type === 'model_call.finished' && e.data.sessionId === sessionId);
    expect(started.length).toBe(chats.length);
    expect(finished.length).toBe(started.length);
    expect(started[0].data).toMatchObject({
      cliAgentId: sessionId,
      agentName: 'main',
      lineagePath: ['main'],
      model: 'gpt-4.1',
      provider: 'openai',
      stream: true,
    });
    expect(started[0].data.request).toContain('Say five words');
    expect(JSON.stringify(events)).not.toContain(PROVIDER_KEY);
    const answered = finished.find((e) => String(e.data.answer).includes('fifteen'));
    expect(answered?.data).toMatchObject({ status: 200, responseId: expect.stringMatching(/^chatcmpl-/), finishReason: 'stop' });
    // Streamed: the answer came in as many chunks as the provider sent (role, three parts, finish, done), kept whole.
    expect(answered?.data.chunks).toBeGreaterThanOrEqual(5);
    expect(answered?.data.answer).toContain('"content":"one two');
  }, 120_000);

  it('attributes the calls of a lead, its CLI sub-agent, the run it starts and that run’s sub-agent to each of them', async () => {
    model.setScript([
      {
        name: 'lead asks the checker',
        systemIncludes: 'LEDGER_LEAD',
        who: 'parent',
        lastIsToolResult: false,
        answer: {
          toolCalls: [
            { name: 'task', arguments: { agent_type: 'ledger-checker', name: 'check-1', description: 'Check', prompt: 'Check it.', mode: 'sync' } },
          ],
        },
      },
      { name: 'checker answers', who: 'child', answer: { text: 'CHECKED_OK' } },
      {
        name: 'lead starts a run',
        systemIncludes: 'LEDGER_LEAD',
        who: 'parent',
        lastIsToolResult: true,
        lastMessageIncludes: 'CHECKED_OK',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'ledger-researcher', prompt: 'Find LEDGER_FACT.' } }] },
      },
      { name: 'lead wraps up', systemIncludes: 'LEDGER_LEAD', who: 'parent', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
      {
        name: 'researcher asks the checker',
        systemIncludes: 'LEDGER_RESEARCHER',
        who: 'parent',
        lastIsToolResult: false,
        answer: {
          toolCalls: [
            { name: 'task', arguments: { agent_type: 'ledger-checker', name: 'check-2', description: 'Check', prompt: 'Check it.', mode: 'sync' } },
          ],
        },
      },
      { name: 'researcher reports', systemIncludes: 'LEDGER_RESEARCHER', who: 'parent', lastIsToolResult: true, answer: { text: 'FACT=42' } },
    ]);
    for (const agent of [
      { id: 'ledger-checker', name: 'Checker', description: 'Checks work', system_message: { mode: 'replace', content: 'LEDGER_CHECKER you check.' } },
      { id: 'ledger-lead', name: 'Lead', system_message: { mode: 'append', content: 'LEDGER_LEAD you lead.' }, sub_agents: ['ledger-checker'] },
      {
        id: 'ledger-researcher',
        name: 'Researcher',
        description: 'Finds facts',
        system_message: { mode: 'append', content: 'LEDGER_RESEARCHER you find facts.' },
        sub_agents: ['ledger-checker'],
      },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
    const created = await http('POST', '/api/sessions', { agentId: 'ledger-lead', delegation: true });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    await turn(sessionId, 'Check, then research.');

    const runs = ((await http('GET', '/api/runs')).body.runs as Json[]).filter((r) => r.ownerThreadId === sessionId);
    expect(runs).toEqual([expect.objectContaining({ agentId: 'ledger-researcher', status: 'completed', output: 'FACT=42' })]);
    const run = runs[0];
    const runThread = `sub-agent-${run.runId}`;
    const [leadChecker] = (await http('GET', `/api/sessions/${sessionId}`)).body.subAgentLaunches as Json[];
    expect(leadChecker).toMatchObject({ agentName: 'ledger-checker', status: 'completed' });
    const tree = (await http('GET', `/api/runs/${run.runId}/tree`)).body;
    const [runChecker] = tree.children as Json[];
    expect(runChecker).toMatchObject({ kind: 'cli_subagent', agentName: 'ledger-checker' });

    const requestsOf = (rule: string) => model.requests.filter((r) => r.rule === rule).length;
    const leadCalls = await callsOf(sessionId);
    const runCalls = await callsOf(runThread);
    const byAgent = (calls: { started: Json }[], name: string) => calls.filter((c) => c.started.data.agentName === name);

    // The lead's own calls: the session's agent, no run.
    const lead = byAgent(leadCalls, 'ledger-lead');
    expect(lead).toHaveLength(requestsOf('lead asks the checker') + requestsOf('lead starts a run') + requestsOf('lead wraps up'));
    for (const { started } of lead) {
      expect(started.data).toMatchObject({ cliAgentId: sessionId, lineagePath: ['ledger-lead'] });
      expect(started.data).not.toHaveProperty('subagentId');
      expect(started.data).not.toHaveProperty('runId');
    }
    // The lead's CLI sub-agent: its own id, under the lead.
    const leadSub = byAgent(leadCalls, 'ledger-checker');
    expect(leadSub.length).toBeGreaterThan(0);
    for (const { started } of leadSub) {
      expect(started.data).toMatchObject({
        subagentId: leadChecker.childSessionId,
        cliAgentId: leadChecker.childSessionId,
        parentCliAgentId: sessionId,
        interactionType: 'conversation-subagent',
        lineagePath: ['ledger-lead', 'ledger-checker'],
      });
      expect(started.data).not.toHaveProperty('runId');
    }
    // The run's agent, on the run's own CLI session: the run is its own root, the lead above it.
    const researcher = byAgent(runCalls, 'ledger-researcher');
    expect(researcher).toHaveLength(requestsOf('researcher asks the checker') + requestsOf('researcher reports'));
    for (const { started } of researcher) {
      expect(started.data).toMatchObject({
        cliAgentId: runThread,
        runId: run.runId,
        rootRunId: run.runId,
        lineagePath: ['ledger-lead', 'ledger-researcher'],
      });
      expect(started.data).not.toHaveProperty('subagentId');
    }
    // The run's CLI sub-agent: in the run, under the researcher.
    const runSub = byAgent(runCalls, 'ledger-checker');
    expect(runSub.length).toBeGreaterThan(0);
    for (const { started } of runSub) {
      expect(started.data).toMatchObject({
        subagentId: expect.any(String),
        runId: run.runId,
        rootRunId: run.runId,
        lineagePath: ['ledger-lead', 'ledger-researcher', 'ledger-checker'],
      });
      expect(started.data.subagentId).not.toBe(leadChecker.childSessionId);
    }
    expect(leadSub.length + runSub.length).toBe(requestsOf('checker answers'));
    // Nothing else, and every call answered and recorded so.
    expect(leadCalls.length + runCalls.length).toBe(lead.length + leadSub.length + researcher.length + runSub.length);
    for (const call of [...leadCalls, ...runCalls]) {
      expect(call.ended).toEqual([expect.objectContaining({ type: 'model_call.finished', data: expect.objectContaining({ status: 200 }) })]);
      expect(call.ended[0].data.runId).toBe(call.started.data.runId);
    }
  }, 120_000);

  it('aborts the provider request when the turn is stopped, and records the call cancelled', async () => {
    model.setScript([{ name: 'hang', lastMessageIncludes: 'HANG_HERE', answer: { hang: true } }]);
    const { sessionId } = (await http('POST', '/api/sessions', {})).body;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'HANG_HERE please' })).status).toBe(202);
    const [held] = await model.waitForRequests((r) => r.rule === 'hang');
    await waitUntil(async () => (await callsOf(sessionId)).length === 1, 'the call to be recorded started', 10_000);

    const stopped = await http('POST', `/api/sessions/${sessionId}/abort`);
    expect(stopped.status).toBeLessThan(300);
    await waitUntil(() => held.aborted, 'the provider to see its request aborted', 10_000);
    const [call] = await waitUntil(async () => {
      const calls = await callsOf(sessionId);
      return calls[0]?.ended.length ? calls : undefined;
    }, 'the call to be recorded ended');
    expect(call.ended).toEqual([
      expect.objectContaining({ type: 'model_call.failed', data: expect.objectContaining({ outcome: 'cancelled', error: expect.any(String) }) }),
    ]);
    // issue 39: no price table, no tokens reported: the call's cost, and so the session's spend, is unknown, never 0.
    const { calls, spend } = (await http('GET', `/api/sessions/${sessionId}/model-calls`)).body;
    expect(calls).toEqual([expect.objectContaining({ status: 'cancelled', cost: null, currency: null })]);
    expect(spend).toEqual({ calls: 1, inputTokens: 0, outputTokens: 0, cost: null, currency: null, unpricedCalls: 1 });
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the session to be idle again', 30_000);
    // Held no longer: nothing of the call is left in flight.
    expect(running.app.app.get(CopilotCliConnection).status().running).toBe(true);
  }, 60_000);

  it('passes a provider 429 through, so the CLI retries it as a new call that succeeds', async () => {
    model.setScript([
      {
        name: 'rate limited',
        lastMessageIncludes: 'RATE_LIMIT_ONCE',
        times: 1,
        answer: { httpError: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down', type: 'rate_limit_error' } } },
      },
      { name: 'answer after the retry', lastMessageIncludes: 'RATE_LIMIT_ONCE', answer: { text: 'RETRIED_OK' } },
    ]);
    const { sessionId } = (await http('POST', '/api/sessions', {})).body;
    await turn(sessionId, 'RATE_LIMIT_ONCE then answer');

    expect(model.requests.filter((r) => r.rule === 'rate limited')).toHaveLength(1);
    expect(model.requests.filter((r) => r.rule === 'answer after the retry')).toHaveLength(1);
    const calls = (await callsOf(sessionId)).sort((a, b) => Number(a.started.globalPosition) - Number(b.started.globalPosition));
    expect(calls.map((c) => c.ended.map((e) => e.type))).toEqual([['model_call.failed'], ['model_call.finished']]);
    expect(calls[0].ended[0].data).toMatchObject({ outcome: 'failed', status: 429, error: expect.stringContaining('429') });
    expect(calls[1].ended[0].data).toMatchObject({ status: 200, finishReason: 'stop' });
    // One agent loop, two attempts: the CLI's request ids differ, its invocation id does not.
    expect(calls[0].started.data.requestId).not.toBe(calls[1].started.data.requestId);
    expect(calls[0].started.data.agentInvocationId).toBe(calls[1].started.data.agentInvocationId);
    const messages = (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body;
    expect(JSON.stringify(messages)).toContain('RETRIED_OK');
  }, 120_000);

  it('never lets the provider key reach the CLI: not on its JSON-RPC wire either way, not in its processes’ environment', async () => {
    model.setScript([{ name: 'answer', answer: { text: 'KEY_TEST_DONE' } }]);
    const { sessionId } = (await http('POST', '/api/sessions', {})).body;
    await turn(sessionId, 'One more call');
    const toCli = tap.toCli();
    const fromCli = tap.fromCli();
    // The tap saw the traffic (this test's and the ones above): sessions created with the placeholder, model calls handed over.
    expect(toCli).toContain('"session.create"');
    expect(toCli).toContain('model-route.switchboard.invalid');
    expect(toCli).toContain('"llmInference.httpResponseChunk"');
    expect(fromCli).toContain('"llmInference.httpRequestStart"');
    expect(fromCli).toContain(sessionId);
    for (const form of secretForms(PROVIDER_KEY)) {
      expect(toCli).not.toContain(form);
      expect(fromCli).not.toContain(form);
    }

    const { pid } = running.app.app.get(CopilotCliConnection).status();
    const tree = processTree(pid as number);
    // The CLI binary and the tap's two tees at least.
    expect(tree[0].cmdline).toContain('copilot');
    expect(tree.filter((p) => p.cmdline.startsWith('tee')).length).toBe(2);
    for (const process of tree) {
      let environment: string;
      try {
        environment = fs.readFileSync(`/proc/${process.pid}/environ`, 'utf8');
      } catch {
        continue; // gone since the listing: a helper of the CLI that ended
      }
      for (const form of secretForms(PROVIDER_KEY)) expect(environment).not.toContain(form);
    }
  });

  // Last: the scripted provider stays down after it.
  it('names the configured provider, not the model route placeholder, when the provider is down (issue 39)', async () => {
    const provider = model.baseUrl;
    const { sessionId } = (await http('POST', '/api/sessions', {})).body;
    await model.stop();
    const sent = await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'Anyone there?' });
    expect(sent.status).toBe(202);
    const errors = await waitUntil(
      async () => {
        const page = (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body;
        const found = ((page.events ?? page) as Json[]).filter((e) => e.type === 'cli.session.error');
        return found.length > 0 && found;
      },
      'the CLI to report the provider outage',
      120_000,
    );
    const text = JSON.stringify(errors);
    expect(text).toContain(provider);
    expect(text).not.toContain('switchboard.invalid');
  }, 180_000);
});

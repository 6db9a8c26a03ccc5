import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { sendTurn } from '../fixtures/session-turns';
import { waitUntil } from '../fixtures/wait-until';

/**
 * agent_run's fork_context with the real Copilot CLI: a forked child's model sees what its caller was
 * told and answered earlier in its session; a child started without it sees only its prompt.
 */
describe('agent_run fork_context on the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);

  beforeAll(async () => {
    await model.start();
    model.setScript([
      { name: 'lead notes the word', systemIncludes: 'FORKLEAD_P', lastMessageIncludes: 'code word is', answer: { text: 'NOTED_BY_LEAD' } },
      {
        name: 'lead delegates with its context',
        systemIncludes: 'FORKLEAD_P',
        lastMessageIncludes: 'Delegate with context',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'helper', prompt: 'Say the code word (forked).', fork_context: true } }] },
      },
      {
        name: 'lead delegates without context',
        systemIncludes: 'FORKLEAD_P',
        lastMessageIncludes: 'Delegate plainly',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'helper', prompt: 'Say the code word (plain).' } }] },
      },
      { name: 'lead holds on', systemIncludes: 'FORKLEAD_P', lastMessageIncludes: '(hold)', answer: { text: 'HELD' }, delayMs: 4000 },
      { name: 'lead wraps up', systemIncludes: 'FORKLEAD_P', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
      { name: 'helper forked', systemIncludes: 'HELPER_P', messagesInclude: '(forked)', answer: { text: 'HELPER_FORKED_DONE' } },
      { name: 'helper api-forked', systemIncludes: 'HELPER_P', messagesInclude: '(api-forked)', answer: { text: 'HELPER_API_DONE' } },
      { name: 'helper plain', systemIncludes: 'HELPER_P', messagesInclude: '(plain)', answer: { text: 'HELPER_PLAIN_DONE' } },
    ]);
    running = await startRealCliApp(model);
    for (const agent of [
      { id: 'fork-lead', name: 'Fork Lead', system_message: { mode: 'append', content: 'FORKLEAD_P you delegate.' } },
      { id: 'helper', name: 'Helper', description: 'Helps', system_message: { mode: 'append', content: 'HELPER_P you help.' } },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  const turn = (sessionId: string, prompt: string) => sendTurn(http, sessionId, prompt);

  async function runStarted(sessionId: string, n: number): Promise<Json> {
    const runs = ((await http('GET', '/api/runs')).body.runs as Json[]).filter((r) => r.ownerThreadId === sessionId);
    expect(runs).toHaveLength(n);
    const newest = runs.sort((a, b) => String(a.startedAt).localeCompare(String(b.startedAt)))[n - 1];
    expect(newest.status).toBe('completed');
    const events = (await http('GET', `/api/streams/run-${newest.runId}/events?limit=10`)).body;
    return (events.events ?? events).find((e: Json) => e.type === 'run.started');
  }

  it("gives a forked child the caller's earlier conversation, and a plain child only its prompt", async () => {
    const session = (await http('POST', '/api/sessions', { agentId: 'fork-lead', delegation: true })).body;
    await turn(session.sessionId, 'The code word is PLUM_42_SECRET; remember it.');
    await turn(session.sessionId, 'Delegate with context, please.');

    const forked = model.requests.find((r) => r.rule === 'helper forked');
    expect(forked?.allText).toContain('PLUM_42_SECRET');
    expect(forked?.allText).toContain('NOTED_BY_LEAD');
    expect(forked?.allText).toContain('Delegate with context, please.');
    // The lead's own system prompt is not part of the fork: only the conversation is.
    expect(forked?.systemText).not.toContain('FORKLEAD_P');

    const started = await runStarted(session.sessionId, 1);
    // user, assistant, user: the tool call's assistant message has no text.
    expect(started.data).toMatchObject({ prompt: 'Say the code word (forked).', forkContext: true, forkedMessages: 3 });
    expect(JSON.stringify(started.data)).not.toContain('PLUM_42_SECRET');

    await turn(session.sessionId, 'Delegate plainly, please.');
    const plain = model.requests.find((r) => r.rule === 'helper plain');
    expect(plain?.allText).toContain('Say the code word (plain).');
    expect(plain?.allText).not.toContain('PLUM_42_SECRET');
    const plainStarted = await runStarted(session.sessionId, 2);
    expect(plainStarted.data.forkContext).toBeUndefined();
  }, 180_000);

  it("over GraphQL, forks the parent run's conversation into a child started under it", async () => {
    const parent = await http('POST', '/api/runs', { agentId: 'fork-lead', prompt: 'The code word is KIWI_9_SECRET (hold).' });
    expect(parent.status).toBe(201);
    // The parent's prompt is recorded on its session; its model answer is held back, so it is still running.
    await waitUntil(
      async () => {
        const events = (await http('GET', `/api/streams/session-sub-agent-${parent.body.runId}/events?limit=100`)).body;
        return ((events.events ?? []) as Json[]).some((e) => e.type === 'session.message_sent');
      },
      'the parent run to send its prompt',
      30_000,
    );
    const gql = graphqlHttp(() => running.app.baseUrl);
    const child = await gql(`mutation ($input: AgentRunInput!) { agentRun(input: $input) { runId status output } }`, {
      input: { agentId: 'helper', prompt: 'Say it (api-forked).', parentRunId: parent.body.runId, forkContext: true, background: false },
    });
    expect(child.body.errors).toBeUndefined();
    expect(child.body.data?.agentRun).toMatchObject({ status: 'completed', output: 'HELPER_API_DONE' });
    expect(model.requests.find((r) => r.rule === 'helper api-forked')?.allText).toContain('KIWI_9_SECRET');
  }, 60_000);

  it('refuses fork_context on a root run started over the API, which has no conversation to fork', async () => {
    const refused = await http('POST', '/api/runs', { agentId: 'helper', prompt: 'Say the code word.', forkContext: true });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_arguments');
  });
});

import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { sendTurn } from '../fixtures/session-turns';
import { waitUntil } from '../fixtures/wait-until';

/**
 * spec: sub-agent-delegation, through the built-in tools with the real Copilot CLI: the main agent of
 * a session calls agent_run in the foreground (it waits and gets the output) and in the background
 * (it is told at its next turn), and each child runs on its own CLI session with its agent's prompt.
 */
describe('delegation through agent_run on the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);

  beforeAll(async () => {
    await model.start();
    model.setScript([
      {
        name: 'lead delegates in the foreground',
        systemIncludes: 'LEAD_PROMPT',
        lastMessageIncludes: 'Research in the foreground',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'researcher', prompt: 'Find FACT_ALPHA.' } }] },
      },
      {
        name: 'lead delegates in the background',
        systemIncludes: 'LEAD_PROMPT',
        lastMessageIncludes: 'Research in the background',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'researcher', prompt: 'Find FACT_BETA.', background: true } }] },
      },
      {
        name: 'lead reads the reminder',
        systemIncludes: 'LEAD_PROMPT',
        lastMessageIncludes: 'Runs you started changed state',
        answer: { text: 'LEAD_SAW_REMINDER' },
      },
      { name: 'lead wraps up', systemIncludes: 'LEAD_PROMPT', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
      {
        name: 'run lead uses its CLI-native sub-agent',
        systemIncludes: 'REVLEAD_P',
        who: 'parent',
        lastIsToolResult: false,
        answer: {
          toolCalls: [{ name: 'task', arguments: { agent_type: 'checker', name: 'check-1', description: 'Check', prompt: 'Check it.', mode: 'sync' } }],
        },
      },
      { name: 'checker answers', who: 'child', answer: { text: 'CHECKED' } },
      { name: 'run lead wraps up', systemIncludes: 'REVLEAD_P', who: 'parent', lastIsToolResult: true, answer: { text: 'REVIEW_OK' } },
      { name: 'researcher alpha', systemIncludes: 'RESEARCHER_PROMPT', messagesInclude: 'FACT_ALPHA', answer: { text: 'ALPHA=42' } },
      { name: 'researcher beta', systemIncludes: 'RESEARCHER_PROMPT', messagesInclude: 'FACT_BETA', answer: { text: 'BETA=7' }, delayMs: 300 },
    ]);
    running = await startRealCliApp(model);
    for (const agent of [
      { id: 'lead', name: 'Lead', system_message: { mode: 'append', content: 'LEAD_PROMPT you delegate research.' } },
      {
        id: 'researcher',
        name: 'Researcher',
        description: 'Finds facts',
        system_message: { mode: 'append', content: 'RESEARCHER_PROMPT you find facts.' },
      },
      { id: 'checker', name: 'Checker', description: 'Checks work', system_message: { mode: 'replace', content: 'CHECKER_P you check.' } },
      { id: 'rev-lead', name: 'Review Lead', system_message: { mode: 'append', content: 'REVLEAD_P you review.' }, sub_agents: ['checker'] },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  const turn = (sessionId: string, prompt: string) => sendTurn(http, sessionId, prompt);

  async function runsOf(sessionId: string): Promise<Json[]> {
    const all = (await http('GET', '/api/runs')).body.runs as Json[];
    return all.filter((r) => r.ownerThreadId === sessionId);
  }

  it('waits for a foreground run and hands its output back to the main agent', async () => {
    const session = (await http('POST', '/api/sessions', { agentId: 'lead', delegation: true })).body;
    await turn(session.sessionId, 'Research in the foreground, please.');

    const [run] = await runsOf(session.sessionId);
    expect(run).toMatchObject({
      agentId: 'researcher',
      status: 'completed',
      output: 'ALPHA=42',
      background: false,
      parentRunId: null,
      parentThreadId: session.sessionId,
      threadId: `sub-agent-${run.runId}`,
      depth: 1,
    });
    expect(run.usage.totalTokens).toBeGreaterThan(0);

    // The lead's second model turn carried the tool result with the child's output.
    const leadAfter = model.requests.find((r) => r.rule === 'lead wraps up' && r.allText.includes(run.runId));
    expect(leadAfter?.allText).toContain('ALPHA=42');
    // The child ran on its own CLI session with the researcher's prompt.
    const childTurn = model.requests.find((r) => r.rule === 'researcher alpha');
    expect(childTurn?.systemText).not.toContain('LEAD_PROMPT');

    // The child's progress was forwarded to the parent's stream, and the session said LEAD_DONE.
    const events = (await http('GET', `/api/streams/session-${session.sessionId}/events?limit=1000`)).body;
    const types = (events.events ?? events).map((e: Json) => e.type);
    expect(types).toContain('run.progress');
    expect(types).toContain('run.ended');

    const output = (await http('GET', `/api/runs/${run.runId}/output`)).body;
    expect(output).toEqual({ runId: run.runId, agentId: 'researcher', status: 'completed', background: false, output: 'ALPHA=42' });
  }, 120_000);

  it('answers a background run at once and reminds the main agent when it ended', async () => {
    const session = (await http('POST', '/api/sessions', { agentId: 'lead', delegation: true })).body;
    await turn(session.sessionId, 'Research in the background, please.');

    const toolResult = model.requests.find((r) => r.rule === 'lead wraps up' && r.allText.includes('"background":true'));
    expect(toolResult?.allText).toContain('"status":"running"');

    const [started] = await runsOf(session.sessionId);
    expect(started.background).toBe(true);
    await waitUntil(async () => (await http('GET', `/api/runs/${started.runId}`)).body.status === 'completed', 'the background run to end', 60_000);

    await turn(session.sessionId, 'Anything new?');
    const reminded = model.requests.find((r) => r.rule === 'lead reads the reminder');
    expect(reminded?.lastMessage && JSON.stringify(reminded.lastMessage)).toContain('BETA=7');
    expect(JSON.stringify(reminded?.lastMessage)).toContain(started.runId);

    // Told once: a further turn carries no reminder.
    await turn(session.sessionId, 'Research in the background, please.');
    const reminders = model.requests.filter((r) => r.rule === 'lead reads the reminder');
    expect(reminders).toHaveLength(1);
  }, 120_000);

  it('shows the CLI-native sub-agents of a run in its tree, as their own node kind', async () => {
    const started = await http('POST', '/api/runs', { agentId: 'rev-lead', prompt: 'Review this.', background: false });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ agentId: 'rev-lead', status: 'completed', output: 'REVIEW_OK' });

    const tree = (await http('GET', `/api/runs/${started.body.runId}/tree`)).body;
    expect(tree).toMatchObject({ kind: 'run', runId: started.body.runId, depth: 0, ownerThreadId: 'api' });
    expect(tree.children).toEqual([expect.objectContaining({ kind: 'cli_subagent', agentName: 'checker', status: 'completed' })]);
    // The run's own usage counts every model call of its session, the sub-agent's included.
    expect(tree.usage.totalTokens).toBeGreaterThan(0);
    expect(tree.usage.toolCalls).toBeGreaterThanOrEqual(1);
    expect(tree.subtreeUsage).toEqual(tree.usage);
  }, 120_000);

  // Last: it replaces the script.
  it('stops the foreground run a stopped turn waits on, with its reason, and lets a background run go on', async () => {
    model.setScript([
      {
        name: 'lead starts a background and a foreground run',
        systemIncludes: 'LEAD_PROMPT',
        lastMessageIncludes: 'Research and wait',
        answer: {
          toolCalls: [
            { name: 'agent_run', arguments: { agent_id: 'researcher', prompt: 'Find FACT_BG_HANG.', background: true } },
            { name: 'agent_run', arguments: { agent_id: 'researcher', prompt: 'Find FACT_FG_HANG.' } },
          ],
        },
      },
      { name: 'lead wraps up', systemIncludes: 'LEAD_PROMPT', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
      { name: 'researcher never answers', systemIncludes: 'RESEARCHER_PROMPT', messagesInclude: '_HANG', answer: { hang: true } },
    ]);
    const { sessionId } = (await http('POST', '/api/sessions', { agentId: 'lead', delegation: true })).body;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'Research and wait, please.' })).status).toBe(202);
    await model.waitForRequests((r) => r.rule === 'researcher never answers', 2);
    const [background, foreground] = ['FACT_BG_HANG', 'FACT_FG_HANG'].map((fact) => async () => {
      const runs = await runsOf(sessionId);
      return runs.find((r) => r.prompt.includes(fact) && r.status === 'running');
    });
    const bg = await waitUntil(background, 'the background run', 30_000);
    const fg = await waitUntil(foreground, 'the foreground run', 30_000);
    // The foreground run told its caller's stream its id at once, naming the agent_run call.
    const before = (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
    expect(before.find((e) => e.type === 'run.progress' && e.data.runId === fg.runId)?.data).toMatchObject({
      kind: 'started',
      toolCallId: expect.any(String),
    });

    expect((await http('POST', `/api/sessions/${sessionId}/abort`)).status).toBe(202);
    const stopped = await waitUntil(
      async () => {
        const run = (await http('GET', `/api/runs/${fg.runId}`)).body;
        return run.status === 'stopped' && run;
      },
      'the foreground run to stop',
      30_000,
    );
    expect(stopped.stoppedBy).toMatchObject({ actor: 'api', reason: `the turn that started it was stopped (session ${sessionId})` });
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the turn to end', 30_000);
    const events = (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
    expect(events.find((e) => e.type === 'run.ended' && e.data.runId === fg.runId)?.data).toMatchObject({ status: 'stopped' });
    expect((await http('GET', `/api/runs/${bg.runId}`)).body.status).toBe('running');

    expect((await http('POST', `/api/runs/${bg.runId}/stop`, {})).status).toBe(200);
  }, 120_000);
});

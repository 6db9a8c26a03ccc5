import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { type RecordedRequest, ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

/**
 * The held answer calls a tool the session does not have: the CLI answers the call with an error and the
 * turn goes on, so the next request (with that result) is inside the same turn. A message queued for
 * after the turn (session.send without mode immediate) would not be in it.
 */
const GOES_ON = { toolCalls: [{ name: 'steer_probe_missing_tool', arguments: {} }] };

/** Whether the request answers the held tool call: it is the same turn's next step. */
const inSameTurn = (r: RecordedRequest) => r.messages.some((m) => m.role === 'tool');

/** A promise a test settles: the scripted model holds an answer on it while the test steers. */
function gate(): { until: Promise<void>; open: () => void } {
  let open!: () => void;
  const until = new Promise<void>((resolve) => (open = resolve));
  return { until, open };
}

/**
 * spec: issue 26, Steer. The real Copilot CLI, every model call through Switchboard to the scripted
 * model. While an agent waits on its model, a person steers it; once the answer comes, the agent's next
 * model request carries the text and no other agent's request does (the main agent of a session, a CLI
 * sub-agent, a run's agent). An agent that is not running is a 409 naming its state; the audit names who steered.
 */
describe('steering a running agent (real CLI)', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http = jsonHttp(() => running.app.baseUrl);
  const consoleHttp = jsonHttp(() => running.app.baseUrl, { 'x-switchboard-client': 'console' });
  const graphql = graphqlHttp(() => running.app.baseUrl);
  const STEER_SESSION = `mutation ($sessionId: ID!, $message: String!, $subagentId: ID) {
    steerSession(sessionId: $sessionId, message: $message, subagentId: $subagentId) { sessionId target subagentId agentName status }
  }`;

  beforeAll(async () => {
    await model.start();
    running = await startRealCliApp(model);
    for (const agent of [
      { id: 'steer-checker', name: 'Checker', description: 'Checks work', system_message: { mode: 'replace', content: 'STEER_CHECKER you check.' } },
      { id: 'steer-sibling', name: 'Sibling', description: 'Checks too', system_message: { mode: 'replace', content: 'STEER_SIBLING you check too.' } },
      {
        id: 'steer-lead',
        name: 'Lead',
        system_message: { mode: 'append', content: 'STEER_LEAD you lead.' },
        sub_agents: ['steer-checker', 'steer-sibling'],
      },
      {
        id: 'steer-researcher',
        name: 'Researcher',
        description: 'Finds facts',
        system_message: { mode: 'append', content: 'STEER_RESEARCHER you find.' },
      },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 90_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  const idle = (sessionId: string) =>
    waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the turn to end', 60_000);

  /** The requests the model got after `held`, in arrival order. */
  const after = (held: RecordedRequest) => model.requests.filter((r) => r.seq > held.seq);
  const carries = (r: RecordedRequest, text: string) => r.allText.includes(text);

  async function sessionEvents(sessionId: string): Promise<Json[]> {
    return (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
  }

  it("puts the text in the main agent's next model request, records who sent it, and refuses once the turn ended", async () => {
    const hold = gate();
    model.setScript([
      { name: 'main held', messagesInclude: 'MAIN_GO', lastIsToolResult: false, who: 'parent', times: 1, until: hold.until, answer: GOES_ON },
      { name: 'main steered', messagesInclude: 'STEER_MAIN_TEXT', who: 'parent', answer: { text: 'STEERED_ANSWER' } },
    ]);
    const sessionId = (await http('POST', '/api/sessions', {})).body.sessionId as string;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'MAIN_GO' })).status).toBe(202);
    const [held] = await model.waitForRequests((r) => r.rule === 'main held');

    const steered = await consoleHttp('POST', `/api/sessions/${sessionId}/steer`, { message: 'STEER_MAIN_TEXT' });
    expect(steered).toMatchObject({ status: 202, body: { sessionId, target: 'main', agentName: 'main', status: 'steered' } });
    hold.open();
    await idle(sessionId);

    expect(carries(held, 'STEER_MAIN_TEXT')).toBe(false);
    const [next] = after(held);
    expect(next.rule).toBe('main steered');
    expect(inSameTurn(next)).toBe(true);
    expect(next.lastMessage.role).toBe('user');
    const events = await sessionEvents(sessionId);
    const event = events.find((e) => e.type === 'session.steered');
    expect(event?.data).toEqual({ message: 'STEER_MAIN_TEXT', target: 'main', agentName: 'main', steeredBy: 'console' });
    // Where it landed: the CLI's own record of the steering message comes after it.
    expect(events.some((e) => e.type === 'cli.user.message' && e.data.payload.content === 'STEER_MAIN_TEXT')).toBe(true);

    const late = await http('POST', `/api/sessions/${sessionId}/steer`, { message: 'too late' });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain(`Session ${sessionId} is idle; only an agent whose turn is running can be steered`);
    const lateGraphql = await graphql(STEER_SESSION, { sessionId, message: 'too late' });
    expect(lateGraphql.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('is idle'), extensions: { code: 'invalid_state' } });
    const audit = await waitUntil(async () => {
      const entries = (await http('GET', `/api/audit?sessionId=${sessionId}&eventType=session.steered&limit=10`)).body.entries as Json[];
      return entries.length > 0 && entries;
    }, 'the steer in the audit log');
    expect(audit.map((e) => e.actor)).toEqual(['console']);
  }, 120_000);

  it("puts the text in a running CLI sub-agent's next model request only, not its parent's nor its sibling's (GraphQL)", async () => {
    const hold = gate();
    model.setScript([
      {
        name: 'lead asks the checker',
        systemIncludes: 'STEER_LEAD',
        who: 'parent',
        lastIsToolResult: false,
        answer: {
          toolCalls: [
            { name: 'task', arguments: { agent_type: 'steer-checker', name: 'check-1', description: 'Check', prompt: 'Check it.', mode: 'sync' } },
            { name: 'task', arguments: { agent_type: 'steer-sibling', name: 'check-2', description: 'Check', prompt: 'Check it too.', mode: 'sync' } },
          ],
        },
      },
      { name: 'sibling', who: 'child', systemIncludes: 'STEER_SIBLING', answer: { text: 'SIBLING_DONE' } },
      { name: 'checker held', who: 'child', systemIncludes: 'STEER_CHECKER', times: 1, until: hold.until, answer: GOES_ON },
      { name: 'checker steered', who: 'child', systemIncludes: 'STEER_CHECKER', messagesInclude: 'STEER_SUB_TEXT', answer: { text: 'CHECKED_STEERED' } },
      { name: 'checker again', who: 'child', systemIncludes: 'STEER_CHECKER', answer: { text: 'CHECKED_PLAIN' } },
      { name: 'lead wraps up', systemIncludes: 'STEER_LEAD', who: 'parent', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
    ]);
    const sessionId = (await http('POST', '/api/sessions', { agentId: 'steer-lead' })).body.sessionId as string;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'Check it.' })).status).toBe(202);
    const [held] = await model.waitForRequests((r) => r.rule === 'checker held');
    const launch = await waitUntil(async () => {
      const launches = (await http('GET', `/api/sessions/${sessionId}`)).body.subAgentLaunches as Json[];
      return launches.find((l) => l.agentName === 'steer-checker' && l.status === 'running');
    }, 'the running checker launch');

    const unknown = await http('POST', `/api/sessions/${sessionId}/steer`, { message: 'x', subagentId: 'no-such-agent' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain(`Session ${sessionId} has no sub-agent no-such-agent`);
    const steered = await graphql(STEER_SESSION, { sessionId, message: 'STEER_SUB_TEXT', subagentId: launch.childSessionId });
    expect(steered.body).toEqual({
      data: { steerSession: { sessionId, target: 'subagent', subagentId: launch.childSessionId, agentName: 'steer-checker', status: 'steered' } },
    });
    hold.open();
    await idle(sessionId);

    const [next] = after(held).filter((r) => r.systemText.includes('STEER_CHECKER'));
    expect(next.rule).toBe('checker steered');
    expect(inSameTurn(next)).toBe(true);
    // Neither the lead nor the sibling sub-agent got it: none of their requests carry the text, before or after.
    const lead = model.requests.filter((r) => r.who === 'parent' && r.systemText.includes('STEER_LEAD'));
    const sibling = model.requests.filter((r) => r.rule === 'sibling');
    expect(lead.length).toBeGreaterThan(1);
    expect(sibling.length).toBeGreaterThan(0);
    expect([...lead, ...sibling].filter((r) => carries(r, 'STEER_SUB_TEXT'))).toEqual([]);
    const event = (await sessionEvents(sessionId)).find((e) => e.type === 'session.steered');
    expect(event?.data).toEqual({
      message: 'STEER_SUB_TEXT',
      target: 'subagent',
      subagentId: launch.childSessionId,
      agentName: 'steer-checker',
      steeredBy: 'api',
    });
    expect(event?.metadata).toMatchObject({ actor: 'api' });

    // Idle now; the launch ended too.
    const ended = await http('POST', `/api/sessions/${sessionId}/steer`, { message: 'x', subagentId: launch.childSessionId });
    expect(ended.status).toBe(409);
  }, 120_000);

  it("puts the text in a run's next model request only, not its owner's, through POST /api/runs/:id/steer", async () => {
    const hold = gate();
    model.setScript([
      {
        name: 'lead starts a run',
        systemIncludes: 'STEER_LEAD',
        who: 'parent',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'steer-researcher', prompt: 'Find the fact.' } }] },
      },
      { name: 'lead wraps up', systemIncludes: 'STEER_LEAD', who: 'parent', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
      { name: 'researcher held', systemIncludes: 'STEER_RESEARCHER', times: 1, until: hold.until, answer: GOES_ON },
      { name: 'researcher steered', systemIncludes: 'STEER_RESEARCHER', messagesInclude: 'STEER_RUN_TEXT', answer: { text: 'FACT_STEERED' } },
      { name: 'researcher again', systemIncludes: 'STEER_RESEARCHER', answer: { text: 'FACT_PLAIN' } },
    ]);
    const sessionId = (await http('POST', '/api/sessions', { agentId: 'steer-lead', delegation: true })).body.sessionId as string;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'Research it.' })).status).toBe(202);
    const [held] = await model.waitForRequests((r) => r.rule === 'researcher held');
    const run = await waitUntil(async () => {
      const runs = (await http('GET', '/api/runs')).body.runs as Json[];
      return runs.find((r) => r.ownerThreadId === sessionId && r.status === 'running');
    }, 'the running run');

    const steered = await consoleHttp('POST', `/api/runs/${run.runId}/steer`, { message: 'STEER_RUN_TEXT' });
    expect(steered).toMatchObject({ status: 202, body: { runId: run.runId, target: 'main', agentName: 'steer-researcher', status: 'steered' } });
    hold.open();
    await idle(sessionId);

    const researcher = after(held).filter((r) => r.systemText.includes('STEER_RESEARCHER'));
    expect(researcher[0].rule).toBe('researcher steered');
    expect(inSameTurn(researcher[0])).toBe(true);
    // The lead that started the run went on after it (its wrap-up) without the text.
    const lead = model.requests.filter((r) => r.systemText.includes('STEER_LEAD') && r.allText.includes('Research it.'));
    expect(lead.map((r) => r.rule)).toEqual(['lead starts a run', 'lead wraps up']);
    expect(lead.filter((r) => carries(r, 'STEER_RUN_TEXT'))).toEqual([]);
    const event = (await sessionEvents(`sub-agent-${run.runId}`)).find((e) => e.type === 'session.steered');
    expect(event?.data).toEqual({ message: 'STEER_RUN_TEXT', target: 'main', agentName: 'steer-researcher', steeredBy: 'console', runId: run.runId });

    const done = await http('POST', `/api/runs/${run.runId}/steer`, { message: 'x' });
    expect(done.status).toBe(409);
    expect(done.body.message).toBe(`Run ${run.runId} is completed; only a running run can be steered`);
  }, 120_000);
});

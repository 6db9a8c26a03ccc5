import { type Json, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { type RecordedRequest, ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

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

  beforeAll(async () => {
    await model.start();
    running = await startRealCliApp(model);
    for (const agent of [
      { id: 'steer-checker', name: 'Checker', description: 'Checks work', system_message: { mode: 'replace', content: 'STEER_CHECKER you check.' } },
      { id: 'steer-lead', name: 'Lead', system_message: { mode: 'append', content: 'STEER_LEAD you lead.' }, sub_agents: ['steer-checker'] },
      { id: 'steer-researcher', name: 'Researcher', description: 'Finds facts', system_message: { mode: 'append', content: 'STEER_RESEARCHER you find.' } },
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

  /** The requests after `held` (by arrival) that some rule of `agent` answered. */
  const after = (held: RecordedRequest) => model.requests.filter((r) => r.seq > held.seq);
  const carries = (r: RecordedRequest, text: string) => r.allText.includes(text);

  async function sessionEvents(sessionId: string): Promise<Json[]> {
    return (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
  }

  it("puts the text in the main agent's next model request, records who sent it, and refuses once the turn ended", async () => {
    const hold = gate();
    model.setScript([
      { name: 'main held', messagesInclude: 'MAIN_GO', lastIsToolResult: false, who: 'parent', times: 1, until: hold.until, answer: { text: 'FIRST_ANSWER' } },
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
    expect(next.lastMessage.role).toBe('user');
    const events = await sessionEvents(sessionId);
    const event = events.find((e) => e.type === 'session.steered');
    expect(event?.data).toEqual({ message: 'STEER_MAIN_TEXT', target: 'main', agentName: 'main', steeredBy: 'console' });
    // Where it landed: the CLI's own record of the steering message comes after it.
    expect(events.some((e) => e.type === 'cli.user.message' && e.data.payload.content === 'STEER_MAIN_TEXT')).toBe(true);

    const late = await http('POST', `/api/sessions/${sessionId}/steer`, { message: 'too late' });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain(`Session ${sessionId} is idle; only an agent whose turn is running can be steered`);
    const audit = await waitUntil(async () => {
      const entries = (await http('GET', `/api/audit?sessionId=${sessionId}&eventType=session.steered&limit=10`)).body.entries as Json[];
      return entries.length > 0 && entries;
    }, 'the steer in the audit log');
    expect(audit.map((e) => e.actor)).toEqual(['console']);
  }, 120_000);
});

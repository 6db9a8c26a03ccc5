import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

/** kill -9 of the real CLI mid-session: the session is interrupted, the CLI restarted, the session resumed. */
describe('the real Copilot CLI dying under a session', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  const lastAnswer = async (sessionId: string) => {
    const events = await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`);
    return events.body.events
      .filter((e: Json) => e.type === 'cli.assistant.message' && !e.data.agentId)
      .map((e: Json) => e.data.payload.content)
      .at(-1);
  };

  beforeAll(async () => {
    await model.start();
    model.setScript([
      { name: 'before crash', who: 'parent', lastMessageIncludes: 'first', answer: { text: 'ANSWER_ONE' } },
      // Sees the whole conversation after resume: proves the CLI kept its history on disk.
      { name: 'after resume', who: 'parent', messagesInclude: 'ANSWER_ONE', answer: { text: 'ANSWER_TWO' } },
      { name: 'unused session', who: 'parent', lastMessageIncludes: 'unused until now', answer: { text: 'FRESH_ANSWER' } },
      { name: 'before the service restart', who: 'parent', lastMessageIncludes: 'remember IDLE_FACT', answer: { text: 'NOTED_IDLE_FACT' } },
      // Only answered with the conversation from before the restart: the CLI resumed it, not a fresh session.
      { name: 'after the service restart', who: 'parent', messagesInclude: 'NOTED_IDLE_FACT', answer: { text: 'STILL_KNOW_IDLE_FACT' } },
      { name: 'a turn the restart cuts', who: 'parent', lastMessageIncludes: 'never answered', answer: { hang: true } },
    ]);
    running = await startRealCliApp(model);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  // The CLI writes a session to disk with its first message: after a restart it has never heard of one that
  // got none, and answers session.resume with "Session not found". Nothing was lost, so resume creates it.
  it('resumes a session that never got a message by creating it again in the new CLI', async () => {
    const created = await http('POST', '/api/sessions', { systemMessage: { mode: 'append', content: 'UNUSED_SESSION_RULES' } });
    const id = created.body.sessionId as string;
    const before = (await http('GET', '/health')).body.copilotCli;
    process.kill(before.pid, 'SIGKILL');
    await waitUntil(async () => (await http('GET', `/api/sessions/${id}`)).body.status === 'interrupted', 'the session to be interrupted', 15_000);

    expect(await http('POST', `/api/sessions/${id}/resume`)).toMatchObject({ status: 200, body: { status: 'idle' } });
    await http('POST', `/api/sessions/${id}/messages`, { prompt: 'unused until now' });
    await waitUntil(async () => (await lastAnswer(id)) === 'FRESH_ANSWER', 'the answer after resume', 30_000);
    // Created from its recorded configuration: the model sees its system message.
    expect(model.requests.some((r) => r.systemText.includes('UNUSED_SESSION_RULES'))).toBe(true);
    const events = (await http('GET', `/api/streams/session-${id}/events?limit=1000`)).body.events as Json[];
    const own = events.filter((e) => e.type.startsWith('session.'));
    // Recorded as the never-created case is: started again on the new CLI, then resumed.
    expect(own.slice(0, 5).map((e) => e.type)).toEqual([
      'session.created',
      'session.started',
      'session.interrupted',
      'session.started',
      'session.resumed',
    ]);
  }, 120_000);

  // issue 39: a session nobody was waiting on when the service stopped lost nothing; it takes its next
  // message at once (brought live by the message), while one whose turn the stop cut is interrupted.
  it('after a service restart, resumes an idle session on its next message and interrupts the one whose turn was cut', async () => {
    const idle = (await http('POST', '/api/sessions', {})).body.sessionId as string;
    expect((await http('POST', `/api/sessions/${idle}/messages`, { prompt: 'remember IDLE_FACT' })).status).toBe(202);
    await waitUntil(async () => (await lastAnswer(idle)) === 'NOTED_IDLE_FACT', 'the turn before the restart', 30_000);
    await waitUntil(async () => (await http('GET', `/api/sessions/${idle}`)).body.status === 'idle', 'the session to be idle', 30_000);
    const busy = (await http('POST', '/api/sessions', {})).body.sessionId as string;
    await http('POST', `/api/sessions/${busy}/messages`, { prompt: 'never answered' });
    await model.waitForRequests((r) => r.rule === 'a turn the restart cuts');

    await running.restart();

    expect((await http('GET', `/api/sessions/${idle}`)).body).toMatchObject({ status: 'idle', statusReason: null });
    expect((await http('GET', `/api/sessions/${busy}`)).body).toMatchObject({
      status: 'interrupted',
      statusReason: 'Switchboard restarted while the session was running',
    });
    // No resume call: the message brings the session live on the new CLI and is taken.
    expect(await http('POST', `/api/sessions/${idle}/messages`, { prompt: 'what was it?' })).toMatchObject({ status: 202, body: { sessionId: idle } });
    await waitUntil(async () => (await lastAnswer(idle)) === 'STILL_KNOW_IDLE_FACT', 'the answer after the restart', 30_000);
    const own = ((await http('GET', `/api/streams/session-${idle}/events?limit=1000`)).body.events as Json[]).filter((e) => e.type.startsWith('session.'));
    expect(own.map((e) => e.type)).toEqual(['session.created', 'session.started', 'session.message_sent', 'session.resumed', 'session.message_sent']);
    expect(own[3].data).toMatchObject({ cliGeneration: 1, instanceId: (await http('GET', '/health')).body.instance.id });
    // The one whose turn was cut still asks for a resume, as it always did.
    expect((await http('POST', `/api/sessions/${busy}/messages`, { prompt: 'too early' })).status).toBe(409);
  }, 120_000);

  it('marks the session interrupted, restarts the CLI, and resumes the conversation', async () => {
    const created = await http('POST', '/api/sessions', {});
    expect(created.status).toBe(201);
    const id = created.body.sessionId as string;
    await http('POST', `/api/sessions/${id}/messages`, { prompt: 'first question' });
    await waitUntil(async () => (await http('GET', `/api/sessions/${id}`)).body.status === 'idle', 'the first turn', 30_000);
    expect(await lastAnswer(id)).toBe('ANSWER_ONE');

    const before = (await http('GET', '/health')).body.copilotCli;
    expect(before).toMatchObject({ running: true, transport: 'stdio', protocolVersion: 3 });
    process.kill(before.pid, 'SIGKILL');

    await waitUntil(async () => (await http('GET', `/api/sessions/${id}`)).body.status === 'interrupted', 'the session to be interrupted', 15_000);
    const after = await waitUntil(
      async () => {
        const cli = (await http('GET', '/health')).body.copilotCli;
        return cli.running && cli.pid !== before.pid ? cli : undefined;
      },
      'a new CLI process',
      30_000,
    );
    expect(after.generation).toBe(before.generation + 1);

    expect((await http('POST', `/api/sessions/${id}/messages`, { prompt: 'too early' })).status).toBe(409);
    expect(await http('POST', `/api/sessions/${id}/resume`)).toMatchObject({ status: 200, body: { status: 'idle' } });
    await http('POST', `/api/sessions/${id}/messages`, { prompt: 'second question' });
    await waitUntil(async () => (await lastAnswer(id)) === 'ANSWER_TWO', 'the answer after resume', 30_000);
    const interrupted = (await http('GET', `/api/streams/session-${id}/events?limit=1000`)).body.events.find(
      (e: Json) => e.type === 'session.interrupted',
    );
    expect(interrupted.data).toMatchObject({ reason: expect.stringContaining('signal SIGKILL') });

    // A clean shutdown stops the CLI it started.
    await running.app.stop();
    await waitUntil(
      () => {
        try {
          process.kill(after.pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      'the CLI process to exit',
      10_000,
    );
  }, 120_000);
});

import type { SessionConfig } from '../../src/sessions/session-config';
import { EventStore } from '../../src/event-store/event-store';
import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

/**
 * kill -9 between recording `session.created` and the CLI's `session.create`: the log has the session,
 * the real CLI never heard of it. Injected by appending the event as CreateSession does and restarting
 * the app. The session comes back interrupted, and resuming it must create it in the CLI from the
 * recorded configuration instead of answering 502 "Session not found" forever.
 */
describe('a session recorded but never created in the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  const sessionId = '0b1e5a10-0000-4000-8000-00000000dead';

  beforeAll(async () => {
    await model.start();
    model.setScript([{ name: 'after recreate', who: 'parent', lastMessageIncludes: 'are you there', answer: { text: 'RECREATED_AND_ANSWERING' } }]);
    running = await startRealCliApp(model);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  it('comes back interrupted, and resume creates it in the CLI so it answers', async () => {
    const config: SessionConfig = {
      model: 'gpt-4.1',
      systemMessage: { mode: 'append', content: 'Answer briefly.' },
      tools: [],
      customAgents: [],
      permissionPolicy: { allowKinds: [], approveOwnTools: true },
      subAgents: [],
    };
    await running.app.app
      .get(EventStore)
      .append(`session-${sessionId}`, 'no_stream', [
        { type: 'session.created', data: { sessionId, config }, metadata: { actor: 'test', correlationId: sessionId } },
      ]);
    await running.restart(); // the service "died" before session.create reached the CLI

    expect((await http('GET', `/api/sessions/${sessionId}`)).body.status).toBe('interrupted');
    const resumed = await http('POST', `/api/sessions/${sessionId}/resume`);
    expect(resumed).toMatchObject({ status: 200, body: { sessionId, status: 'idle', protocolVersion: 3 } });

    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'are you there?' })).status).toBe(202);
    const answer = await waitUntil(
      async () => {
        const events = (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
        return events.find((e) => e.type === 'cli.assistant.message' && !e.data.agentId)?.data.payload.content;
      },
      'the scripted model to answer',
      60_000,
    );
    expect(answer).toBe('RECREATED_AND_ANSWERING');
    // The configuration it was created with is the recorded one: the model saw its system message.
    expect(model.requests.some((r) => r.systemText.includes('Answer briefly.'))).toBe(true);

    const recorded = (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
    expect(recorded.slice(0, 4).map((e) => e.type)).toEqual(['session.created', 'session.interrupted', 'session.started', 'session.resumed']);
    // The resume's session.started and session.resumed are correlated with the session, like its create.
    expect(recorded.slice(0, 4).map((e) => e.metadata.correlationId)).toEqual([sessionId, sessionId, sessionId, sessionId]);
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the turn to end', 30_000);

    // Resumed later (another restart), it is an ordinary resume: the CLI has it now.
    await running.restart();
    expect(await http('POST', `/api/sessions/${sessionId}/resume`)).toMatchObject({ status: 200, body: { status: 'idle' } });
  }, 180_000);
});

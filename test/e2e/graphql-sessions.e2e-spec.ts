import type { Client } from 'graphql-ws';
import { graphqlHttp, GraphqlSubscription, graphqlWs } from '../fixtures/graphql-client';
import type { Json } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';

const TOKEN = 'graphql-cli-token-0123456789';

/** Session mutations and the sessionEvents subscription over GraphQL, on the real Copilot CLI and the scripted model. */
describe('GraphQL session mutations on the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  let client: Client;
  const gql = graphqlHttp(() => running.app.baseUrl, TOKEN);

  beforeAll(async () => {
    await model.start();
    model.setScript([
      { name: 'a turn that never ends', lastMessageIncludes: 'HANG_UNTIL_STOPPED', answer: { hang: true } },
      { name: 'answer', who: 'parent', answer: { text: 'GRAPHQL_DONE' } },
    ]);
    running = await startRealCliApp(model, { apiToken: TOKEN });
    client = graphqlWs(running.app.baseUrl, TOKEN);
  }, 60_000);

  afterAll(async () => {
    await client?.dispose();
    await running?.close();
    await model.stop();
  });

  it('creates a session, sends a message and follows the turn on sessionEvents, then destroys it', async () => {
    const created = await gql('mutation ($input: CreateSessionInput) { createSession(input: $input) { sessionId status model protocolVersion } }', {
      input: { permissionPolicy: { allowKinds: ['read'] } },
    });
    expect(created.body.errors).toBeUndefined();
    const { sessionId, status } = created.body.data.createSession;
    expect(status).toBe('active');

    const events = new GraphqlSubscription<{ sessionEvents: { type: string; streamPosition: number; data: Json } }>(
      client,
      'subscription ($id: ID!) { sessionEvents(sessionId: $id) { type streamPosition data } }',
      { id: sessionId },
    ).start();
    await events.waitFor((v) => v.some((e) => e.sessionEvents.type === 'session.started'), 'session.started');

    const sent = await gql('mutation ($id: ID!) { sendMessage(sessionId: $id, prompt: "Say it.") { sessionId } }', { id: sessionId });
    expect(sent.body.errors).toBeUndefined();
    expect(sent.body.data.sendMessage.sessionId).toBe(sessionId);

    const values = await events.waitFor(
      (v) => v.some((e) => e.sessionEvents.type === 'cli.session.idle' && !e.sessionEvents.data.agentId),
      'the turn to end',
      60_000,
    );
    const types = values.map((v) => v.sessionEvents.type);
    expect(types.slice(0, 2)).toEqual(['session.created', 'session.started']);
    expect(types).toContain('session.message_sent');
    expect(JSON.stringify(values)).toContain('GRAPHQL_DONE');
    const positions = values.map((v) => v.sessionEvents.streamPosition);
    expect(positions).toEqual(positions.map((_, i) => i + 1)); // every event once, in order, from the start

    const shown = await gql('query ($id: ID!) { session(id: $id) { sessionId status workingDirectory } }', { id: sessionId });
    expect(shown.body.data.session).toMatchObject({
      sessionId,
      status: expect.stringMatching(/idle|active/),
      workingDirectory: running.app.config.cli.workingDirectory,
    });

    const destroyed = await gql('mutation ($id: ID!) { destroySession(sessionId: $id) { sessionId status } }', { id: sessionId });
    expect(destroyed.body.data.destroySession).toEqual({ sessionId, status: 'destroyed' });
    events.stop();
  }, 90_000);

  it('stops a running turn: abortSessionTurn is recorded on the session, the CLI ends the turn, and a second stop is refused', async () => {
    const created = await gql('mutation { createSession { sessionId } }');
    const { sessionId } = created.body.data.createSession;
    const events = new GraphqlSubscription<{ sessionEvents: { type: string; data: Json } }>(
      client,
      'subscription ($id: ID!) { sessionEvents(sessionId: $id) { type data } }',
      { id: sessionId },
    ).start();
    const idleCount = (v: Array<{ sessionEvents: { type: string; data: Json } }>) =>
      v.filter((e) => e.sessionEvents.type === 'cli.session.idle' && !e.sessionEvents.data.agentId).length;

    await gql('mutation ($id: ID!) { sendMessage(sessionId: $id, prompt: "HANG_UNTIL_STOPPED please") { sessionId } }', { id: sessionId });
    await model.waitForRequests((r) => JSON.stringify(r.lastMessage).includes('HANG_UNTIL_STOPPED'));
    const before = idleCount(events.values);

    const stopped = await gql('mutation ($id: ID!) { abortSessionTurn(sessionId: $id) { sessionId status } }', { id: sessionId });
    expect(stopped.body.errors).toBeUndefined();
    expect(stopped.body.data.abortSessionTurn).toEqual({ sessionId, status: 'stopping' });
    const values = await events.waitFor((v) => idleCount(v) > before, 'the aborted turn to end', 30_000);
    expect(values.map((v) => v.sessionEvents.type)).toContain('session.abort_requested');
    const shown = await gql('query ($id: ID!) { session(id: $id) { status } }', { id: sessionId });
    expect(shown.body.data.session.status).toBe('idle');

    const again = await gql('mutation ($id: ID!) { abortSessionTurn(sessionId: $id) { sessionId status } }', { id: sessionId });
    expect(again.body.errors?.[0]).toMatchObject({
      message: `Session ${sessionId} is idle; there is no running turn to stop`,
      extensions: { code: 'invalid_state' },
    });
    events.stop();
    await gql('mutation ($id: ID!) { destroySession(sessionId: $id) { sessionId } }', { id: sessionId });
  }, 90_000);
});

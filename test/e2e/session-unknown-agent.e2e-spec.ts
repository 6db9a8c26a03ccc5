import { appStoreTargets } from '../fixtures/app-store-targets';
import { graphqlHttp } from '../fixtures/graphql-client';
import type { Json } from '../fixtures/json-http';
import { type SessionHarness, startSessionHarness } from '../fixtures/session-harness';

/**
 * A session asked for with an agent the library does not have is refused before anything is recorded:
 * 422 unknown_agent (as POST /api/runs answers), no session.created, no row in the list. On both stores.
 */
describe.each(appStoreTargets())('creating a session with an unknown agentId (%s)', (_name, store) => {
  let h: SessionHarness;
  beforeAll(async () => (h = await startSessionHarness({ store })));
  afterAll(() => h.close());

  const nothingRecorded = async () => {
    expect((await h.http('GET', '/api/sessions')).body).toEqual({ sessions: [] });
    const events = (await h.http('GET', '/api/events?limit=1000')).body.events as Json[];
    expect(events.filter((e) => String(e.streamId).startsWith('session-'))).toEqual([]);
    expect(await h.store.query('SELECT session_id FROM sessions')).toEqual([]);
  };

  it('REST: 422 unknown_agent naming the agent, and no failed session behind', async () => {
    const refused = await h.http('POST', '/api/sessions', { agentId: 'no-such-agent' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'unknown_agent', details: { agentId: 'no-such-agent' } });
    expect(refused.body.message).toContain('GET /api/agents');
    await nothingRecorded();
    expect(h.fake.received.filter((r) => r.method === 'session.create')).toEqual([]);
  });

  it('GraphQL: the same refusal in extensions, and no failed session behind', async () => {
    const graphql = graphqlHttp(() => h.app.baseUrl);
    const answer = await graphql('mutation($input: CreateSessionInput) { createSession(input: $input) { sessionId } }', {
      input: { agentId: 'no-such-agent' },
    });
    expect(answer.body.errors?.[0]).toMatchObject({ extensions: { code: 'unknown_agent', statusCode: 422 } });
    await nothingRecorded();
  });
});

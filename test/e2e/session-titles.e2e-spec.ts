import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'session-titles-token-0123456789';

/**
 * spec: issue 24. Sessions listed by title (the CLI's `session.title_changed`, else the first message)
 * with a preview of the last message, searched, and without the sessions delegated runs work in: on the
 * real Copilot CLI with the scripted model, through REST and GraphQL.
 */
describe('session titles, previews and search through the API', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
  const gql = graphqlHttp(() => running.app.baseUrl, TOKEN);

  beforeAll(async () => {
    await model.start();
    model.setScript([{ name: 'answer', answer: { text: 'Found **two** issues in `main.ts`.' } }]);
    running = await startRealCliApp(model, { apiToken: TOKEN });
    const agent = await http('POST', '/api/agents', {
      id: 'code-reviewer',
      name: 'Code Reviewer',
      system_message: { mode: 'append', content: 'Review.' },
    });
    expect(agent.status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  async function turn(sessionId: string, prompt: string): Promise<void> {
    const sent = await http('POST', `/api/sessions/${sessionId}/messages`, { prompt });
    expect(sent.status).toBe(202);
    await waitUntil(() => settled(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle'), 'the turn to end', 60_000);
  }

  const listed = async (query = '') => (await http('GET', `/api/sessions${query}`)).body.sessions as Json[];

  it('titles a session by what the CLI named it (its first message) and previews the last message, shortened plain text', async () => {
    const created = await http('POST', '/api/sessions', { agentId: 'code-reviewer' });
    expect(created.status).toBe(201);
    const { sessionId } = created.body;
    // Before any message: no title, no preview.
    expect((await listed()).find((s) => s.sessionId === sessionId)).toMatchObject({ title: null, preview: null, runId: null });

    await turn(sessionId, 'Review main.ts for bugs');
    const events = (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
    const named = events.filter((e) => e.type === 'cli.session.title_changed').map((e) => e.data.payload.title as string);
    const session = (await listed()).find((s) => s.sessionId === sessionId);
    // The real CLI names the session (after its first message) with session.title_changed: the list shows that title.
    expect(named.length).toBeGreaterThan(0);
    expect(session).toMatchObject({
      title: named.at(-1),
      preview: 'Found two issues in main.ts.',
      agentId: 'code-reviewer',
      runId: null,
    });
    expect(session.title).toContain('Review main.ts');

    // A later message changes the preview, never the title.
    await turn(sessionId, 'Now the tests, please');
    expect((await http('GET', `/api/sessions/${sessionId}`)).body).toMatchObject({ title: session.title, preview: 'Found two issues in main.ts.' });
    const { body } = await gql('query ($id: ID!) { session(id: $id) { title preview runId run { runId } } }', { id: sessionId });
    expect(body.data.session).toEqual({ title: session.title, preview: 'Found two issues in main.ts.', runId: null, run: null });
  }, 120_000);

  it('searches title, preview and agent in any case; refuses a search it cannot take with a 400 that says why', async () => {
    const other = await http('POST', '/api/sessions', {});
    await turn(other.body.sessionId, 'Plan the release');
    const ids = async (search: string) => (await listed(`?search=${encodeURIComponent(search)}`)).map((s) => s.sessionId as string);

    const reviews = await ids('REVIEW MAIN');
    expect(reviews.length).toBeGreaterThan(0);
    expect(reviews).not.toContain(other.body.sessionId);
    expect(await ids('code-rev')).toEqual(reviews);
    expect(await ids('two issues')).toEqual(expect.arrayContaining([...reviews, other.body.sessionId]));
    expect(await ids('plan the')).toEqual([other.body.sessionId]);
    expect(await ids('no such words')).toEqual([]);
    const { body } = await gql('{ sessions(search: "plan THE") { sessionId title } }');
    expect(body.data.sessions).toEqual([{ sessionId: other.body.sessionId, title: expect.stringContaining('Plan the release') }]);

    const tooLong = await http('GET', `/api/sessions?search=${'x'.repeat(201)}`);
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain('search must be at most 200 characters');
    const notBoolean = await http('GET', '/api/sessions?includeRunSessions=yes');
    expect(notBoolean.status).toBe(400);
    expect(JSON.stringify(notBoolean.body)).toContain('includeRunSessions must be true or false');
    const graphqlTooLong = await gql('query ($s: String) { sessions(search: $s) { sessionId } }', { s: 'x'.repeat(201) });
    expect(graphqlTooLong.body.errors?.[0].message).toContain('search must be at most 200 characters');
  }, 120_000);

  it("leaves a run's session out of the chat list; it is reached from its run, and listed under it when asked for", async () => {
    const started = await http('POST', '/api/runs', { agentId: 'code-reviewer', prompt: 'Review the tests' });
    expect(started.status).toBe(201);
    const runId = started.body.runId as string;
    await waitUntil(() => settled(async () => (await http('GET', `/api/runs/${runId}`)).body.status !== 'running'), 'the run to end', 60_000);

    expect((await listed()).map((s) => s.sessionId)).not.toContain(`sub-agent-${runId}`);
    const all = await listed('?includeRunSessions=true');
    expect(all.find((s) => s.runId === runId)).toMatchObject({ sessionId: `sub-agent-${runId}`, title: expect.stringContaining('Review the tests') });

    const { body } = await gql(
      'query ($id: ID!) { run(id: $id) { threadId } sessions(includeRunSessions: true, search: "review the tests") { sessionId runId run { agentId prompt } } }',
      { id: runId },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.sessions).toEqual([{ sessionId: body.data.run.threadId, runId, run: { agentId: 'code-reviewer', prompt: 'Review the tests' } }]);
    const thread = await gql('query ($id: ID!) { session(id: $id) { sessionId runId title } }', { id: body.data.run.threadId });
    expect(thread.body.data.session).toMatchObject({ sessionId: `sub-agent-${runId}`, runId });
  }, 120_000);
});

/** A probe asked every 100 ms rather than waitUntil's 10 ms: each one is an HTTP request. */
async function settled(probe: () => Promise<boolean>): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  return probe();
}

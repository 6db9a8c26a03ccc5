import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { waitUntil } from '../fixtures/wait-until';

/** The user-input REST commands over GraphQL: a question the CLI asks is listed and answered through the API. */
describe('GraphQL pendingUserInput and answerUserInput', () => {
  let h: SessionHarness;
  const gql = graphqlHttp(() => h.app.baseUrl);

  beforeAll(async () => {
    h = await startSessionHarness({ protocolVersion: 3 });
  }, 30_000);

  afterAll(() => h?.close());

  it('lists the question and hands the answer back to the CLI, once', async () => {
    const sessionId = await h.createTeamSession();
    const answered = h.fake.request<Json>('userInput.request', { sessionId, question: 'Deploy now?', choices: ['yes', 'no'], allowFreeform: false });
    const pending = await waitUntil(async () => {
      const response = await gql('query ($id: ID!) { pendingUserInput(sessionId: $id) { requestId question choices allowFreeform } }', { id: sessionId });
      return response.body.data?.pendingUserInput[0];
    }, 'the pending question');
    expect(pending).toMatchObject({ question: 'Deploy now?', choices: ['yes', 'no'], allowFreeform: false });

    const mutation =
      'mutation ($s: ID!, $r: ID!) { answerUserInput(sessionId: $s, requestId: $r, answer: "yes", wasFreeform: false) { requestId answered } }';
    const reply = await gql(mutation, { s: sessionId, r: pending.requestId });
    expect(reply.body).toEqual({ data: { answerUserInput: { requestId: pending.requestId, answered: true } } });
    expect(await answered).toEqual({ answer: 'yes', wasFreeform: false });
    // The recorded answer names the question it answers (a reader pairs them by requestId, not by text).
    const recorded = await waitUntil(async () => {
      const page = (await (await fetch(`${h.app.baseUrl}/api/streams/session-${sessionId}/events?limit=1000`)).json()) as { events: Json[] };
      return page.events.find((e) => e.type === 'user_input.answered');
    }, 'the recorded answer');
    expect(recorded.data).toMatchObject({ requestId: pending.requestId, outcome: 'answered' });

    const again = await gql(mutation, { s: sessionId, r: pending.requestId });
    expect(again.body.errors?.[0].extensions).toMatchObject({ code: 'not_found', statusCode: 404 });
    const unknownSession = await gql('query { pendingUserInput(sessionId: "nobody") { requestId } }');
    expect(unknownSession.body.errors?.[0].extensions).toMatchObject({ code: 'not_found' });
  });
});

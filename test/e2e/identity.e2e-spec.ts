import type { Client } from 'graphql-ws';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { graphqlHttp, GraphqlSubscription, graphqlWs } from '../fixtures/graphql-client';
import { jsonHttp } from '../fixtures/json-http';

const TOKEN = 'identity-e2e-token-0123456789';

/** issue 27: who the caller is, over REST (GET /api/me), GraphQL over HTTP and graphql-ws, on the real app. */
describe('identity: the principal every transport sees', () => {
  const clients: Client[] = [];
  afterAll(async () => Promise.all(clients.map(async (c) => c.dispose())));

  /** `{ me { ... } }` over a graphql-ws connection, answered once. */
  async function meOverWebSocket(running: RunningApp, token?: string) {
    const client = graphqlWs(running.baseUrl, token);
    clients.push(client);
    const query = new GraphqlSubscription(client, '{ me { kind id name role via } }').start();
    await query.waitForEnd();
    return query;
  }

  describe('with SWITCHBOARD_API_TOKEN set', () => {
    let running: RunningApp;
    beforeAll(async () => {
      running = await startTestApp({ apiToken: TOKEN });
    });
    afterAll(async () => running.close());

    it('answers GET /api/me for the token as the operator with the admin role, and 401 without it', async () => {
      const operator = await jsonHttp(() => running.baseUrl, { authorization: `Bearer ${TOKEN}` })('GET', '/api/me');
      expect(operator).toEqual({ status: 200, body: { kind: 'operator', id: 'operator', name: 'operator', role: 'admin', via: 'bearer' } });

      for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }] as Array<Record<string, string>>) {
        const refused = await jsonHttp(() => running.baseUrl, headers)('GET', '/api/me');
        expect(refused.status).toBe(401);
        expect(refused.body).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('Authorization: Bearer') });
      }
    });

    it('answers the GraphQL me query over HTTP and graphql-ws with the same principal', async () => {
      const http = await graphqlHttp(() => running.baseUrl, TOKEN)('{ me { kind id name role via } }');
      expect(http.body).toEqual({ data: { me: { kind: 'operator', id: 'operator', name: 'operator', role: 'admin', via: 'bearer' } } });

      const ws = await meOverWebSocket(running, TOKEN);
      expect(ws.values).toEqual([{ me: { kind: 'operator', id: 'operator', name: 'operator', role: 'admin', via: 'bearer' } }]);

      const refused = await meOverWebSocket(running);
      expect(refused.errors).toEqual([{ closeCode: 4403, reason: 'Forbidden' }]);
    });
  });

  describe('with nothing configured, on loopback (the one-person start)', () => {
    let running: RunningApp;
    beforeAll(async () => {
      running = await startTestApp({ apiToken: undefined });
    });
    afterAll(async () => running.close());

    it('stays open and calls everyone the local admin, on REST, GraphQL over HTTP and graphql-ws', async () => {
      const local = { kind: 'local', id: 'local', name: 'local admin', role: 'admin', via: 'none' };
      expect(await jsonHttp(() => running.baseUrl)('GET', '/api/me')).toEqual({ status: 200, body: local });
      // A bearer nobody configured changes nothing, as before.
      expect(await jsonHttp(() => running.baseUrl, { authorization: 'Bearer anything' })('GET', '/api/me')).toEqual({ status: 200, body: local });
      expect((await graphqlHttp(() => running.baseUrl)('{ me { kind id name role via } }')).body).toEqual({ data: { me: local } });
      expect((await meOverWebSocket(running)).values).toEqual([{ me: local }]);
    });
  });
});

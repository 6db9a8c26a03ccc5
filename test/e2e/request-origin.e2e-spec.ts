import * as http from 'node:http';
import WebSocket from 'ws';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';

const TOKEN = 'request-origin-e2e-token-0123';
const ATTACKER = 'https://attacker.example';

interface Answer {
  status: number;
  contentType: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * One request over real HTTP with the headers as given (Host and Origin included, which fetch will not
 * send); an event stream that opens is read for a moment and then cut.
 */
function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, method, path, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      const answer = () =>
        resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), body: text, headers: response.headers });
      if (String(response.headers['content-type']).startsWith('text/event-stream')) {
        setTimeout(() => {
          answer();
          request.destroy();
        }, 300);
      } else response.on('end', answer);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A graphql-ws handshake; `refused` is the HTTP answer when the service would not upgrade, `acked` when it said connection_ack. */
function openWebSocket(
  baseUrl: string,
  headers: Record<string, string>,
  token?: string,
  path = '/graphql',
): Promise<{ refused?: Answer; acked: boolean }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`, 'graphql-transport-ws', { headers });
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () =>
        resolve({
          refused: { status: response.statusCode ?? 0, contentType: String(response.headers['content-type']), body: text, headers: response.headers },
          acked: false,
        }),
      );
    });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: token ? { Authorization: `Bearer ${token}` } : {} })));
    socket.on('message', (data: Buffer) => {
      const acked = (JSON.parse(data.toString()) as { type: string }).type === 'connection_ack';
      socket.close();
      resolve({ acked });
    });
    socket.on('close', () => resolve({ acked: false }));
    socket.on('error', () => undefined);
  });
}

const json = (answer: Answer) => JSON.parse(answer.body) as { statusCode: number; code: string; message: string };

/**
 * issue 22: a page in the operator's browser must neither read nor change anything, whether it is on
 * another origin (cross-site requests, cross-site WebSocket hijacking) or on a DNS name rebound to
 * 127.0.0.1; REST, SSE, GraphQL over HTTP and the WebSocket upgrade alike, with and without a token.
 */
describe.each([
  ['without a token', undefined],
  ['with a token', TOKEN],
])('requests from browsers, %s', (_label, token) => {
  let running: RunningApp;
  let own: string;
  const auth = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  const agentCount = async () => {
    const answer = await send(running.baseUrl, 'GET', '/api/agents', auth());
    expect(answer.status).toBe(200);
    return (JSON.parse(answer.body) as { agents: unknown[] }).agents.length;
  };
  const newAgent = JSON.stringify({ name: 'planted', description: 'planted by a page', instructions: 'x' });

  beforeAll(async () => {
    running = await startTestApp({ apiToken: token, requestOrigin: { allowedHosts: ['switchboard.test'], allowedOrigins: ['http://console.test:5173'] } });
    own = running.baseUrl;
  });
  afterAll(() => running.close());

  describe('a Host that does not name the service (DNS rebinding) is answered 421 before routing', () => {
    const rebound = () => `attacker.test:${new URL(own).port}`;

    it.each([
      ['GET', '/api/agents'],
      ['GET', '/api/sessions/s-1/events'],
      ['GET', '/health'],
      ['GET', '/'],
      ['GET', '/metrics'],
    ])('%s %s', async (method, path) => {
      const answer = await send(own, method, path, { host: rebound(), ...auth() });
      expect(answer.status).toBe(421);
      expect(json(answer)).toMatchObject({ statusCode: 421, code: 'unknown_host' });
      expect(json(answer).message).toContain('SWITCHBOARD_ALLOWED_HOSTS');
    });

    it('GraphQL over HTTP, the query unanswered and the mutation not run', async () => {
      const before = await agentCount();
      const headers = { host: rebound(), 'content-type': 'application/json', origin: `http://${rebound()}`, ...auth() };
      const query = await send(own, 'POST', '/graphql', headers, JSON.stringify({ query: '{ sessions { sessionId } }' }));
      expect(query.status).toBe(421);
      const created = await send(own, 'POST', '/api/agents', headers, newAgent);
      expect(created.status).toBe(421);
      expect(await agentCount()).toBe(before);
    });

    it('the WebSocket upgrade is refused before the handshake', async () => {
      const socket = await openWebSocket(own, { host: rebound(), origin: `http://${rebound()}` }, token);
      expect(socket.acked).toBe(false);
      expect(socket.refused?.status).toBe(421);
      expect(json(socket.refused as Answer).code).toBe('unknown_host');
    });

    it('names listed in SWITCHBOARD_ALLOWED_HOSTS and loopback names are served', async () => {
      expect((await send(own, 'GET', '/api/agents', { host: 'switchboard.test', ...auth() })).status).toBe(200);
      expect((await send(own, 'GET', '/api/agents', { host: `localhost:${new URL(own).port}`, ...auth() })).status).toBe(200);
      expect((await openWebSocket(own, { host: `localhost:${new URL(own).port}`, origin: `http://localhost:${new URL(own).port}` }, token)).acked).toBe(
        true,
      );
    });
  });

  describe('a page on another origin is answered 403', () => {
    it('REST reads and writes; nothing changes', async () => {
      const before = await agentCount();
      const read = await send(own, 'GET', '/api/agents', { origin: ATTACKER, ...auth() });
      expect(read.status).toBe(403);
      expect(json(read)).toMatchObject({ statusCode: 403, code: 'cross_origin_refused' });
      expect(json(read).message).toContain('SWITCHBOARD_ALLOWED_ORIGINS');
      const write = await send(own, 'POST', '/api/agents', { origin: ATTACKER, 'content-type': 'application/json', ...auth() }, newAgent);
      expect(write.status).toBe(403);
      expect(await agentCount()).toBe(before);
    });

    it('a no-cors read the browser marks cross-site, and an opaque origin', async () => {
      expect((await send(own, 'GET', '/api/agents', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', ...auth() })).status).toBe(403);
      expect((await send(own, 'GET', '/api/agents', { origin: 'null', ...auth() })).status).toBe(403);
    });

    it('the SSE stream (EventSource) is refused before the route runs', async () => {
      const control = await send(own, 'GET', '/api/sessions/no-such-session/events', { accept: 'text/event-stream', ...auth() });
      expect(control.status).toBe(404); // the route ran
      const foreign = await send(own, 'GET', '/api/sessions/no-such-session/events', { accept: 'text/event-stream', origin: ATTACKER, ...auth() });
      expect(foreign.status).toBe(403);
      expect(foreign.contentType).toContain('application/json');
    });

    it('GraphQL over HTTP', async () => {
      const body = JSON.stringify({ query: '{ sessions { sessionId } }' });
      const answer = await send(own, 'POST', '/graphql', { origin: ATTACKER, 'content-type': 'application/json', ...auth() }, body);
      expect(answer.status).toBe(403);
      const get = await send(own, 'GET', `/graphql?query=${encodeURIComponent('{ sessions { sessionId } }')}`, { origin: ATTACKER, ...auth() });
      expect(get.status).toBe(403);
    });

    it('the WebSocket upgrade (cross-site WebSocket hijacking) is refused before the handshake', async () => {
      const socket = await openWebSocket(own, { origin: ATTACKER }, token);
      expect(socket.acked).toBe(false);
      expect(socket.refused?.status).toBe(403);
      expect(json(socket.refused as Answer).code).toBe('cross_origin_refused');
      const otherPort = await openWebSocket(own, { origin: 'http://127.0.0.1:1' }, token);
      expect(otherPort.refused?.status).toBe(403);
    });

    it('pages the service serves, origins in SWITCHBOARD_ALLOWED_ORIGINS and clients without Origin are served', async () => {
      expect((await send(own, 'GET', '/api/agents', { origin: own, 'sec-fetch-site': 'same-origin', ...auth() })).status).toBe(200);
      expect((await send(own, 'GET', '/api/agents', { origin: 'http://console.test:5173', ...auth() })).status).toBe(200);
      expect((await openWebSocket(own, { origin: own }, token)).acked).toBe(true);
      expect((await openWebSocket(own, {}, token)).acked).toBe(true);
    });

    it('a link from another site still opens a page (a top-level navigation)', async () => {
      const answer = await send(own, 'GET', '/health/live', {
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
      });
      expect(answer.status).toBe(200);
    });

    // issue 39: another site framed Swagger UI near-invisibly and had the person click through it.
    it.each(['iframe', 'frame', 'embed', 'object'])('a frame another site loads (Sec-Fetch-Dest: %s) is refused, /api/docs included', async (dest) => {
      const navigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': dest };
      for (const path of ['/api/docs', '/api/docs/', '/', '/health/live']) {
        const framed = await send(own, 'GET', path, { ...navigation, ...auth() });
        expect({ path, status: framed.status }).toEqual({ path, status: 403 });
        expect(json(framed)).toMatchObject({ statusCode: 403, code: 'cross_origin_refused' });
      }
    });

    it("Swagger UI's calls from another origin (its try-it-out, framed or not) change nothing: POST /api/keys is refused", async () => {
      const keys = async () => JSON.parse((await send(own, 'GET', '/api/keys', auth())).body) as { keys: unknown[] };
      const before = await keys();
      const created = await send(
        own,
        'POST',
        '/api/keys',
        {
          origin: ATTACKER,
          'sec-fetch-site': 'cross-site',
          'sec-fetch-mode': 'cors',
          'sec-fetch-dest': 'empty',
          'content-type': 'application/json',
          ...auth(),
        },
        JSON.stringify({ name: 'planted', role: 'admin' }),
      );
      expect(created.status).toBe(403);
      expect(json(created).code).toBe('cross_origin_refused');
      expect(await keys()).toEqual(before);
    });
  });

  // issue 39: whatever answers (a page, the API, a refusal, a 404), no other page may show it in a frame.
  it.each<[string, string, string, Record<string, string>, string | undefined]>([
    ['Swagger UI', 'GET', '/api/docs/', {}, undefined],
    ['the OpenAPI document', 'GET', '/api/docs-json', {}, undefined],
    ['GraphQL', 'POST', '/graphql', { 'content-type': 'application/json' }, JSON.stringify({ query: '{ agents { id } }' })],
    ['GraphQL over GET', 'GET', '/graphql?query=%7Bagents%7Bid%7D%7D', { 'apollo-require-preflight': 'true' }, undefined],
    ['the health summary', 'GET', '/health', {}, undefined],
    ['a path nothing serves (404)', 'GET', '/api/no-such-thing', {}, undefined],
    ['an API answer', 'GET', '/api/agents', {}, undefined],
    ['a refused foreign page (403)', 'GET', '/api/agents', { origin: ATTACKER }, undefined],
    ['a refused body (415)', 'POST', '/api/agents', { 'content-type': 'text/plain' }, 'x'],
  ])('%s (%s %s) refuses to be framed', async (_what, method, path, headers, body) => {
    const answer = await send(own, method, path, { ...headers, ...auth() }, body);
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('an answer refused for want of the token refuses to be framed as well', async () => {
    const answer = await send(own, 'GET', '/api/docs', {});
    expect(answer.status).toBe(token ? 401 : 200);
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('a WebSocket handshake on a path that has none is answered 404, not left open', async () => {
    const port = new URL(own).port;
    const socket = await openWebSocket(own, { host: `127.0.0.1:${port}` }, token, '/api/sessions');
    expect(socket.acked).toBe(false);
    expect(socket.refused?.status).toBe(404);
    expect(json(socket.refused as Answer).message).toContain('/graphql');
  });

  describe('a POST a page could send without a preflight is answered 415', () => {
    it.each([
      ['no body and no Content-Type', undefined, undefined],
      ['text/plain', 'text/plain', '{}'],
      ['a form', 'application/x-www-form-urlencoded', 'a=b'],
    ])('POST /api/sessions/:id/resume with %s', async (_what, contentType, body) => {
      const answer = await send(
        own,
        'POST',
        '/api/sessions/no-such-session/resume',
        { ...(contentType ? { 'content-type': contentType } : {}), ...auth() },
        body,
      );
      expect(answer.status).toBe(415);
      expect(json(answer)).toMatchObject({ statusCode: 415, code: 'unsupported_media_type' });
      expect(json(answer).message).toContain('Content-Type: application/json');
    });

    it('text/plain GraphQL mutations are refused; with Content-Type: application/json and no body the route runs', async () => {
      const before = await agentCount();
      const mutation = JSON.stringify({ query: 'mutation { createAgent(input: {name: "planted", description: "x", instructions: "x"}) { id } }' });
      expect((await send(own, 'POST', '/graphql', { 'content-type': 'text/plain', ...auth() }, mutation)).status).toBe(415);
      expect(await agentCount()).toBe(before);
      const resumed = await send(own, 'POST', '/api/sessions/no-such-session/resume', { 'content-type': 'application/json', ...auth() });
      expect(resumed.status).toBe(404);
    });
  });
});

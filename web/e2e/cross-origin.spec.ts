import type { Page } from '@playwright/test';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { expect, test } from './fixtures';

// issue 22: a page in the operator's browser, on another origin or on a DNS name the attacker rebinds
// to 127.0.0.1, reads nothing and changes nothing, over HTTP, SSE and the graphql-ws WebSocket. The
// service runs without a token (the case the issue is about: loopback trusted every caller).
// attacker.test resolves to 127.0.0.1 in this browser, as a rebound name would. Chromium's own Private
// Network Access checks would also stop the rebound page (served, as far as it knows, from elsewhere)
// calling 127.0.0.1; other browsers have none, so they are off here: the service's refusal is under test.
test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS,
      '--host-resolver-rules=MAP attacker.test 127.0.0.1',
      '--disable-features=PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests,LocalNetworkAccessChecks',
    ],
  },
});

/**
 * What the attacker's page runs against `target`: every way a page has to reach a service. Each
 * attempt records what it could read (`read`), or why it could not; nothing it sends may change the
 * agent library.
 */
const ATTACK = String.raw`
window.attack = async (target, sessionId) => {
  const results = {};
  const answer = async (response) => ({ status: response.status, body: await response.text() });
  const attempt = async (name, run) => {
    try { results[name] = { read: await run() }; } catch (error) { results[name] = { failed: String(error) }; }
  };
  const planted = (via) => JSON.stringify({ name: 'Planted ' + via, description: 'x', system_message: { content: 'x' } });
  await attempt('cors GET /api/agents', async () => answer(await fetch(target + '/api/agents')));
  await attempt('no-cors GET /api/agents', async () => answer(await fetch(target + '/api/agents', { mode: 'no-cors' })));
  await attempt('no-cors text/plain POST /api/agents', async () =>
    answer(await fetch(target + '/api/agents', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: planted('text/plain') })));
  await attempt('no-cors body-less POST resume', async () =>
    answer(await fetch(target + '/api/sessions/' + sessionId + '/resume', { method: 'POST', mode: 'no-cors' })));
  await attempt('cors JSON POST /api/agents', async () =>
    answer(await fetch(target + '/api/agents', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: planted('json') })));
  await attempt('no-cors text/plain POST /graphql', async () =>
    answer(await fetch(target + '/graphql', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ query: 'mutation { createAgent(input: {name: "Planted graphql", description: "x", systemMessage: {content: "x"}}) { id } }' }) })));
  await attempt('cors GraphQL query', async () =>
    answer(await fetch(target + '/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ sessions { sessionId } }' }) })));
  await attempt('EventSource session events', () => new Promise((resolve, reject) => {
    const source = new EventSource(target + '/api/sessions/' + sessionId + '/events');
    const events = [];
    source.onmessage = (e) => events.push(e.data);
    source.addEventListener('session.created', (e) => events.push(e.data));
    source.onerror = () => { source.close(); events.length ? resolve(events) : reject(new Error('EventSource failed')); };
    setTimeout(() => { source.close(); events.length ? resolve(events) : reject(new Error('EventSource: nothing')); }, 3000);
  }));
  await attempt('graphql-ws', () => new Promise((resolve, reject) => {
    const socket = new WebSocket(target.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    const frames = [];
    socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    socket.onmessage = (e) => {
      frames.push(e.data);
      const message = JSON.parse(e.data);
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ sessions { sessionId } }' } }));
        socket.send(JSON.stringify({ id: '2', type: 'subscribe', payload: { query: 'mutation { createAgent(input: {name: "Planted ws", description: "x", systemMessage: {content: "x"}}) { id } }' } }));
      }
    };
    socket.onclose = (e) => (frames.length ? resolve(frames) : reject(new Error('WebSocket closed ' + e.code)));
    setTimeout(() => { socket.close(); frames.length ? resolve(frames) : reject(new Error('WebSocket: nothing')); }, 3000);
  }));
  return results;
};
`;

const PAGE = `<!doctype html><title>Totally harmless page</title><h1>Nothing to see</h1><script>${ATTACK}</script>`;

/** A web server of the attacker's own on another port of 127.0.0.1: another origin. `/framing` is `framing`, any other path PAGE. */
async function attackerSite(framing = ''): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) =>
    response.writeHead(200, { 'Content-Type': 'text/html' }).end(request.url === '/framing' ? framing : PAGE),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface HttpAnswer {
  status: number;
  body: string;
}
type AttackResults = Record<string, { read?: HttpAnswer | string[]; failed?: string }>;

async function attack(page: Page, target: string, sessionId: string): Promise<AttackResults> {
  return page.evaluate(([t, s]) => (window as unknown as { attack: (t: string, s: string) => Promise<AttackResults> }).attack(t, s), [
    target,
    sessionId,
  ] as const);
}

/** The service's refusals: what a page may see of it, and all it may see. */
const REFUSAL = /^\{"statusCode":(403|415|421),"code":"(cross_origin_refused|unsupported_media_type|unknown_host)"/;

/**
 * What an attempt got beyond a failure, an opaque no-cors answer (status 0, no body) or one of the
 * service's refusals: anything listed here is a leak (or a change the service accepted).
 */
function leaks(results: AttackResults): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(results).flatMap(([name, { read }]) => {
      if (read === undefined) return [];
      if (!Array.isArray(read) && ((read.status === 0 && read.body === '') || REFUSAL.test(read.body))) return [];
      return [[name, read]];
    }),
  );
}

test('a page on another origin and one on a rebound host name get nothing from the service and change nothing', async ({ page, api, service }) => {
  const { sessionId } = await api.call<{ sessionId: string }>('POST', '/api/sessions', {});
  const agentsBefore = await api.listAgents();
  const site = await attackerSite();
  try {
    // Another origin: the attacker's own server on another port.
    await page.goto(site.url);
    await expect(page.getByRole('heading', { name: 'Nothing to see' })).toBeVisible();
    const fromOtherOrigin = await attack(page, service.url, sessionId);
    expect(Object.keys(fromOtherOrigin)).toHaveLength(9);
    expect(leaks(fromOtherOrigin)).toEqual({});

    // A rebound name: the page came from the attacker's server for attacker.test:<the service's port>;
    // then the name resolves to 127.0.0.1, so its own origin now reaches the service.
    const rebound = `http://attacker.test:${new URL(service.url).port}`;
    await page.route(`${rebound}/`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: PAGE }));
    await page.goto(`${rebound}/`);
    await expect(page.getByRole('heading', { name: 'Nothing to see' })).toBeVisible();
    await page.unroute(`${rebound}/`);
    const fromReboundName = await attack(page, rebound, sessionId);
    expect(Object.keys(fromReboundName)).toHaveLength(9);
    expect(leaks(fromReboundName)).toEqual({});
    // Its calls reached the service, which refused them before routing (the page, same-origin with the
    // name, can read that much): not a closed port or a browser block.
    expect(fromReboundName['cors GET /api/agents'].read).toMatchObject({ status: 421 });
    expect(fromReboundName['no-cors text/plain POST /api/agents'].read).toMatchObject({ status: 421 });
  } finally {
    await site.close();
  }
  expect(await api.listAgents()).toEqual(agentsBefore);
  const session = await api.call<{ status: string }>('GET', `/api/sessions/${sessionId}`);
  expect(session.status).not.toBe('destroyed');
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});

// issue 39: the attacker's page framed Swagger UI near-invisibly and had the person click through
// "Try it out" into POST /api/keys, locking the owner out of a service that had no token yet.
test('a page on another origin cannot frame the API docs or the console, nor create a key', async ({ page, api, service }) => {
  const framing =
    '<!doctype html><title>Win a prize</title><h1>Click twice to win</h1>' +
    `<iframe title="API docs" src="${service.url}/api/docs/" style="opacity:0.01"></iframe>` +
    `<iframe title="console" src="${service.url}/" style="opacity:0.01"></iframe>`;
  const site = await attackerSite(framing);
  const answers: Array<{ path: string; status: number }> = [];
  page.on('response', (response) => {
    if (response.url().startsWith(service.url)) answers.push({ path: new URL(response.url()).pathname, status: response.status() });
  });
  try {
    // goto waits for the page's load event, which waits for its frames (loaded or blocked).
    await page.goto(`${site.url}framing`);
    await expect(page.getByRole('heading', { name: 'Click twice to win' })).toBeVisible();
    for (const title of ['API docs', 'console']) {
      const frame = await page
        .getByTitle(title)
        .elementHandle()
        .then((element) => element?.contentFrame());
      expect(frame).toBeTruthy();
      // Blocked: the frame holds the browser's error page, never the service's page.
      expect({ title, url: frame?.url() }).not.toEqual({ title, url: expect.stringContaining(service.url) });
      const markup = (await frame?.evaluate(() => document.documentElement.outerHTML)) ?? '';
      expect(markup).not.toContain('swagger-ui');
      expect(markup).not.toContain('id="root"');
    }
    // The service refused both loads itself (a frame's navigation from another site is a foreign request).
    expect(answers).toEqual(
      expect.arrayContaining([
        { path: '/api/docs/', status: 403 },
        { path: '/', status: 403 },
      ]),
    );

    // What "Try it out" sends, a JSON POST, needs a preflight, which the service refuses: it is never sent.
    // The form-like POST a page may send without one reaches the service, which refuses it by its Origin.
    const plant = (mode: RequestMode) =>
      page.evaluate(
        async ([target, m]) => {
          try {
            const response = await fetch(`${target}/api/keys`, {
              method: 'POST',
              mode: m,
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ name: 'planted', role: 'admin' }),
            });
            return { status: response.status };
          } catch (error) {
            return { failed: String(error) };
          }
        },
        [service.url, mode] as const,
      );
    expect(await plant('cors')).toHaveProperty('failed');
    const refused = page.waitForResponse((response) => response.url() === `${service.url}/api/keys` && response.request().method() === 'POST');
    expect(await plant('no-cors')).toEqual({ status: 0 });
    expect((await refused).status()).toBe(403); // cross_origin_refused: no credential is needed here, so nothing else answers 403
  } finally {
    await site.close();
  }
  expect(await api.call<{ keys: unknown[] }>('GET', '/api/keys')).toEqual({ keys: [] });
});

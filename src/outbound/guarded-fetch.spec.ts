import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedFetch, OutboundRefusedError } from './guarded-fetch';
import { type HostResolver, OutboundUrlGuard } from './outbound-url-guard';

/** `agents.test` resolves to the local server; `metadata.test` to the cloud metadata address. */
const resolve: HostResolver = async (hostname) => {
  if (hostname === 'agents.test') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe('guardedFetch', () => {
  let server: http.Server;
  let port: number;
  const received: Array<{ method?: string; url?: string; authorization?: string; body: string }> = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, authorization: request.headers.authorization, body });
        if (request.url === '/slow') {
          const late = setTimeout(() => response.end('late'), 2_000);
          return void response.on('close', () => clearTimeout(late));
        }
        if (request.url === '/big') return void response.end('x'.repeat(5_000));
        if (request.url === '/empty') return void response.writeHead(204).end();
        response.writeHead(201, { 'content-type': 'application/json', 'x-answer': 'yes' }).end(JSON.stringify({ echoed: body }));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  const fetchThrough = (allow: string[] = [], timeoutMs = 1_000) =>
    guardedFetch(new OutboundUrlGuard({ allow, resolve, localAddresses: () => [] }), { timeoutMs, maxResponseBytes: 1_000 });

  it('sends the method, headers and body and answers as fetch does', async () => {
    const answer = await fetchThrough()(`http://agents.test:${port}/a2a`, {
      method: 'POST',
      headers: { authorization: 'Bearer t0ken', 'content-type': 'application/json' },
      body: '{"ask":1}',
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-answer')).toBe('yes');
    expect(await answer.json()).toEqual({ echoed: '{"ask":1}' });
    expect(received.at(-1)).toEqual({ method: 'POST', url: '/a2a', authorization: 'Bearer t0ken', body: '{"ask":1}' });
  });

  it('answers a 204 with no body', async () => {
    const answer = await fetchThrough()(`http://127.0.0.1:${port}/empty`);
    expect(answer.status).toBe(204);
    expect(await answer.text()).toBe('');
  });

  it('refuses an address the guard refuses before anything is sent, a literal one at once', async () => {
    const before = received.length;
    await expect(fetchThrough()('http://169.254.169.254/latest/meta-data')).rejects.toThrow(OutboundRefusedError);
    await expect(fetchThrough(['10.0.0.0/8'])(`http://127.0.0.1:${port}/a2a`)).rejects.toThrow(/refused by the outbound guard/);
    expect(received.length).toBe(before);
  });

  it('refuses a host name when the connection resolves it to a refused address', async () => {
    await expect(fetchThrough()(`http://metadata.test:${port}/a2a`)).rejects.toThrow(OutboundRefusedError);
  });

  it('gives up at its deadline, on an abort, and on an answer past its size limit', async () => {
    await expect(fetchThrough([], 200)(`http://127.0.0.1:${port}/slow`)).rejects.toThrow('did not answer within 200 ms');
    const aborted = new AbortController();
    const pending = fetchThrough()(`http://127.0.0.1:${port}/slow`, { signal: aborted.signal });
    aborted.abort(new Error('run stopped'));
    await expect(pending).rejects.toThrow('run stopped');
    await expect(fetchThrough()(`http://127.0.0.1:${port}/big`)).rejects.toThrow('answered with more than 1000 bytes');
  });
});

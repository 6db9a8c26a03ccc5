import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerProblem, ProviderProbe, providerListingRequest } from './provider-probe';

/** A loopback HTTP server answering every request with `status` after `delayMs`; counts requests. */
async function provider(status: number, delayMs = 0) {
  const seen: Array<{ url: string; authorization?: string }> = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end('{"data":[]}'), delayMs).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

// The first fetch of a process loads undici: a generous timeout except where the timeout is the point.
const options = { answeringTtlMs: 60_000, failingTtlMs: 60_000, timeoutMs: 5_000 };

describe('ProviderProbe', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });

  it('asks GET <baseUrl>/models with the key, once for many callers at once, and says when it answered', async () => {
    const p = await provider(200, 50);
    servers.push(p);
    const probe = new ProviderProbe({ type: 'openai', baseUrl: `${p.baseUrl}/`, apiKey: 'sk-1' }, options);
    const results = await Promise.all(Array.from({ length: 5 }, () => probe.reachability()));
    expect(p.seen).toEqual([{ url: '/v1/models', authorization: 'Bearer sk-1' }]);
    expect(results[0].reason).toBeUndefined();
    for (const r of results) expect(r).toMatchObject({ state: 'answering', endpoint: `${p.baseUrl}/models`, lastAnsweredAt: expect.any(String) });
    // Cached: a second look within the TTL asks nothing.
    await probe.reachability();
    expect(p.seen).toHaveLength(1);
  });

  it('is failing with what to fix when nothing listens, the key is refused, or it does not answer in time', async () => {
    const down = await provider(200);
    await down.close();
    expect(await new ProviderProbe({ type: 'openai', baseUrl: down.baseUrl, apiKey: 'k' }, options).reachability()).toMatchObject({
      state: 'failing',
      reason: expect.stringMatching(/cannot be reached \(ECONNREFUSED\).*COPILOT_PROVIDER_BASE_URL/),
      lastAnsweredAt: undefined,
    });

    const refusing = await provider(401);
    servers.push(refusing);
    expect(await new ProviderProbe({ type: 'openai', baseUrl: refusing.baseUrl, apiKey: 'k' }, options).reachability()).toMatchObject({
      state: 'failing',
      reason: expect.stringContaining('COPILOT_PROVIDER_API_KEY'),
    });

    const slow = await provider(200, 10_000);
    servers.push(slow);
    const started = Date.now();
    const result = await new ProviderProbe({ type: 'openai', baseUrl: slow.baseUrl, apiKey: 'k' }, { ...options, timeoutMs: 300 }).reachability();
    expect(result).toMatchObject({ state: 'failing', reason: expect.stringContaining('did not answer within 300 ms') });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('looks again once the TTL passed, and keeps when it last answered while failing', async () => {
    let now = 1_000_000;
    const p = await provider(200);
    servers.push(p);
    const probe = new ProviderProbe({ type: 'openai', baseUrl: p.baseUrl, apiKey: 'k' }, { ...options, answeringTtlMs: 10 }, () => now);
    const first = await probe.reachability();
    await p.close();
    now += 11;
    const second = await probe.reachability();
    expect(second).toMatchObject({ state: 'failing', lastAnsweredAt: first.lastAnsweredAt });
  });

  it('says unchecked when there is no BYOK provider to ask', async () => {
    expect(await new ProviderProbe(undefined, options).reachability()).toEqual({ state: 'unchecked' });
  });
});

describe('providerListingRequest / answerProblem', () => {
  it('puts the key where each provider type expects it', () => {
    expect(providerListingRequest({ type: 'azure', baseUrl: 'http://h/x', apiKey: 'a' })).toEqual({
      url: 'http://h/x/models',
      headers: { 'api-key': 'a' },
    });
    expect(providerListingRequest({ type: 'anthropic', baseUrl: 'http://h', apiKey: 'a' }).headers).toMatchObject({ 'x-api-key': 'a' });
    expect(providerListingRequest({ type: 'openai', baseUrl: 'http://h', apiKey: undefined }).headers).toEqual({});
  });

  it('treats any answer but a refused key or a server error as answering', () => {
    expect(answerProblem(200)).toBeUndefined();
    expect(answerProblem(404)).toBeUndefined();
    expect(answerProblem(403)).toContain('COPILOT_PROVIDER_API_KEY');
    expect(answerProblem(503)).toContain('HTTP 503');
  });
});

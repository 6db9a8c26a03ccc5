import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { testConfig } from '../../test/fixtures/test-config';
import type { SwitchboardConfig } from '../config';
import { ProviderTraffic } from '../model-calls';
import { ProviderProbe } from './provider-probe';
import { PROVIDER_TRAFFIC_RECENT_MS, Readiness } from './readiness';

/**
 * The provider check alone: real model-call traffic decides while there is some, the probe (a real
 * loopback server answering GET /models) only when no call ended in the last minute.
 */
describe('Readiness.providerCheck', () => {
  let server: http.Server;
  let listings = 0;
  let baseUrl: string;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      listings += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  // Only the clock is faked: the probe's fetch needs real timers.
  beforeEach(() => {
    listings = 0;
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'queueMicrotask'] });
  });
  afterEach(() => jest.useRealTimers());

  function readiness(cli: Partial<SwitchboardConfig['cli']>) {
    const config = testConfig('/nonexistent-readiness-spec');
    const provider = 'provider' in cli ? cli.provider : { type: 'openai' as const, baseUrl, apiKey: 'k' };
    const traffic = new ProviderTraffic();
    const probe = new ProviderProbe(provider, { answeringTtlMs: 0, failingTtlMs: 0, timeoutMs: 5_000 });
    // The database, projections and CLI are not asked by this check.
    const check = new Readiness(
      { ...config, cli: { ...config.cli, ...cli, provider } },
      undefined as never,
      undefined as never,
      undefined as never,
      probe,
      traffic,
    );
    return { check: () => check.providerCheck(), traffic };
  }

  it('probes an idle provider, and says when it last answered', async () => {
    const { check } = readiness({});
    expect(await check()).toMatchObject({ ok: true, source: 'probe', answering: true, lastAnsweredAt: expect.any(String), traffic: { calls: 0 } });
    expect(listings).toBe(1);
  });

  it('takes the state from the calls of the last minute without probing: failing at the first failed call, with its reason', async () => {
    const { check, traffic } = readiness({});
    traffic.succeeded('m', 200, 50);
    expect(await check()).toMatchObject({ ok: true, source: 'traffic', answering: true, traffic: { calls: 1, failing: false } });
    traffic.failed('m', 30, 503, 'the model provider answered 503: overloaded');
    expect(await check()).toMatchObject({
      ok: false,
      gatesReadiness: false,
      source: 'traffic',
      answering: false,
      reason:
        'the last model call failed (1 of the last 2 failed): the model provider answered 503: overloaded; the provider is up but failing; check its own status',
    });
    traffic.failed('m', 30, 401, 'the model provider answered 401');
    expect((await check()).reason).toContain('check COPILOT_PROVIDER_API_KEY');
    expect(listings).toBe(0);
  });

  it('goes back to the probe once no call ended in the last minute, keeping the later of the two last answers', async () => {
    const { check, traffic } = readiness({});
    traffic.failed('m', 30, undefined, 'the model provider could not be reached: ECONNREFUSED');
    expect((await check()).ok).toBe(false);
    jest.setSystemTime(Date.now() + PROVIDER_TRAFFIC_RECENT_MS + 1);
    expect(await check()).toMatchObject({ ok: true, source: 'probe', traffic: { failing: true } });
    expect(listings).toBe(1);

    // A probe that fails and never answered: the provider last answered a call.
    const down = readiness({ provider: { type: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' } });
    down.traffic.succeeded('m', 10, 5);
    const answeredAt = down.traffic.state().lastSuccessAt;
    jest.setSystemTime(Date.now() + PROVIDER_TRAFFIC_RECENT_MS + 1);
    expect(await down.check()).toMatchObject({ ok: false, source: 'probe', answering: false, lastAnsweredAt: answeredAt });
  });

  it('with a GitHub token: traffic when there is some, nothing asked otherwise; without any provider: failing and gating', async () => {
    const github = readiness({ provider: undefined, githubToken: 'gho_x' });
    expect(await github.check()).toMatchObject({ ok: true, kind: 'github-token', source: 'none', answering: null });
    github.traffic.failed('m', 30, 500, 'the model provider answered 500');
    expect(await github.check()).toMatchObject({ ok: false, kind: 'github-token', source: 'traffic', gatesReadiness: false });
    const none = readiness({ provider: undefined, githubToken: undefined });
    expect(await none.check()).toEqual({ ok: false, reason: expect.stringContaining('no model provider is configured') });
    expect(listings).toBe(0);
  });
});

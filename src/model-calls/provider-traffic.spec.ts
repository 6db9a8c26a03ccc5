import { ProviderTraffic } from './provider-traffic';

describe('ProviderTraffic', () => {
  const start = Date.parse('2026-11-27T10:00:00.000Z');
  beforeEach(() => jest.useFakeTimers({ now: start }));
  afterEach(() => jest.useRealTimers());
  const later = (ms: number) => jest.setSystemTime(Date.now() + ms);

  it('knows nothing before any call', () => {
    expect(new ProviderTraffic().state()).toEqual({ calls: 0, failures: 0, failing: false });
    expect(new ProviderTraffic().busySince(60_000)).toBe(false);
  });

  it('counts calls and failures, the error rate, when it last succeeded and failed, and the median latencies of the successes', () => {
    const traffic = new ProviderTraffic();
    traffic.succeeded('m', 100, 10);
    later(1000);
    traffic.succeeded('m', 300, 30);
    later(1000);
    traffic.failed('m', 5, 503, 'the model provider answered 503');
    later(1000);
    traffic.succeeded('m', 200, 20);
    expect(traffic.state()).toEqual({
      calls: 4,
      failures: 1,
      errorRate: 0.25,
      lastSuccessAt: '2026-11-27T10:00:03.000Z',
      lastFailureAt: '2026-11-27T10:00:02.000Z',
      lastFailureStatus: 503,
      lastFailureReason: 'the model provider answered 503',
      ttfbP50Ms: 20,
      durationP50Ms: 200,
      failing: false,
    });
  });

  it('is failing as soon as the last call failed, and no longer once one succeeds, even within the same millisecond', () => {
    const traffic = new ProviderTraffic();
    traffic.succeeded('m', 10, 5);
    traffic.failed('m', 3, undefined, 'the model provider could not be reached: ECONNREFUSED');
    expect(traffic.state()).toMatchObject({ failing: true, lastFailureReason: expect.stringContaining('ECONNREFUSED') });
    expect(traffic.state().lastFailureStatus).toBeUndefined();
    traffic.succeeded('m', 10, 5);
    expect(traffic.state().failing).toBe(false);
  });

  it('keeps the last 100 calls of the last 10 minutes', () => {
    const traffic = new ProviderTraffic();
    for (let i = 0; i < 150; i += 1) traffic.failed('m', 1, 500);
    traffic.succeeded('m', 1, 1);
    expect(traffic.state()).toMatchObject({ calls: 100, failures: 99 });
    later(10 * 60_000 + 1);
    // The window is empty; when it last succeeded and failed is still said.
    expect(traffic.state()).toEqual({
      calls: 0,
      failures: 0,
      lastSuccessAt: expect.any(String),
      lastFailureAt: expect.any(String),
      lastFailureStatus: 500,
      failing: false,
    });
  });

  it('is busy while a call ended within the given time', () => {
    const traffic = new ProviderTraffic();
    traffic.succeeded('m', 1, 1);
    later(60_000);
    expect(traffic.busySince(60_000)).toBe(true);
    later(1);
    expect(traffic.busySince(60_000)).toBe(false);
  });
});

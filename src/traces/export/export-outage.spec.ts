import { ExportOutage } from './export-outage';

describe('ExportOutage', () => {
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

  it('doubles the wait from the first retry up to its cap, and starts an outage once', () => {
    const outage = new ExportOutage(5_000, 1_000);
    const verdicts = [0, 1, 2, 3, 4, 5].map((i) => outage.failed(`refused ${i}`, at(i * 100)));
    expect(verdicts.map((v) => v.delayMs)).toEqual([1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
    expect(verdicts.map((v) => v.started)).toEqual([true, false, false, false, false, false]);
    expect(outage.current).toEqual({ error: 'refused 5', since: at(0), attempts: 6, nextRetryAt: at(500 + 5_000) });
  });

  it('ends on a success, says what it ended, and the next failure starts over from the first retry', () => {
    const outage = new ExportOutage(30_000, 1_000);
    expect(outage.succeeded()).toBeUndefined();
    outage.failed('503', at(0));
    outage.failed('503', at(1_000));
    expect(outage.succeeded()).toMatchObject({ attempts: 2, since: at(0) });
    expect(outage.current).toBeUndefined();
    expect(outage.failed('refused', at(9_000))).toEqual({ delayMs: 1_000, started: true });
  });

  it('never overflows after a very long outage', () => {
    const outage = new ExportOutage(30_000, 1_000);
    let last = 0;
    for (let i = 0; i < 2_000; i++) last = outage.failed('down', at(i)).delayMs;
    expect(last).toBe(30_000);
  });
});

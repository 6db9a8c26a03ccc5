import { FIRST_RETRY_MS, retryDelayMs } from './async-projection-runner';

describe('retryDelayMs', () => {
  it('doubles from 100 ms after each failure in a row, up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, 30_000))).toEqual([100, 200, 400, 800, 1600]);
    expect(FIRST_RETRY_MS).toBe(100);
    expect(retryDelayMs(9, 30_000)).toBe(25_600);
    expect(retryDelayMs(10, 30_000)).toBe(30_000);
    expect(retryDelayMs(10_000, 30_000)).toBe(30_000);
  });

  it('never waits longer than the cap, even a small one', () => {
    expect(retryDelayMs(1, 100)).toBe(100);
    expect(retryDelayMs(3, 250)).toBe(250);
  });
});

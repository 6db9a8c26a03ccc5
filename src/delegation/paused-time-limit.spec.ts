import { pausedTimeLimit } from './paused-time-limit';

/** The pause intervals a fake clock's test declares, as PauseHolds.pausedMsOver counts them. */
function pausedOver(intervals: Array<[number, number | undefined]>) {
  return async (from: number, to: number) =>
    intervals.reduce((sum, [start, end]) => sum + Math.max(0, Math.min(to, end ?? to) - Math.max(from, start)), 0);
}

describe('pausedTimeLimit', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('comes due at the time limit when nothing was paused', async () => {
    const due = jest.fn();
    pausedTimeLimit(1_000, pausedOver([]), due);
    await jest.advanceTimersByTimeAsync(999);
    expect(due).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('moves later by the time a pause held, and does not come due while a pause still holds', async () => {
    const t0 = Date.now();
    const intervals: Array<[number, number | undefined]> = [[t0 + 200, undefined]];
    const due = jest.fn();
    pausedTimeLimit(1_000, pausedOver(intervals), due);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(due).not.toHaveBeenCalled();
    // Unpaused after 4.8 s of pause: 800 ms of the limit were left when it began.
    intervals[0] = [t0 + 200, t0 + 5_000];
    await jest.advanceTimersByTimeAsync(799);
    expect(due).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(260);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('never comes due once cancelled', async () => {
    const due = jest.fn();
    pausedTimeLimit(1_000, pausedOver([]), due).cancel();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(due).not.toHaveBeenCalled();
  });
});

import { FlushScheduler } from './flush-scheduler';

describe('FlushScheduler', () => {
  let flush: jest.Mock;
  let scheduler: FlushScheduler;
  beforeEach(() => {
    jest.useFakeTimers();
    flush = jest.fn();
    scheduler = new FlushScheduler(flush);
  });
  afterEach(() => jest.useRealTimers());

  it('flushes once per loop turn however many appends asked', () => {
    scheduler.schedule(0);
    scheduler.schedule(0);
    scheduler.schedule(25);
    jest.runOnlyPendingTimers();
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('lets a patient append wait for company, until an impatient one flushes it sooner', () => {
    scheduler.schedule(50);
    jest.advanceTimersByTime(49);
    expect(flush).not.toHaveBeenCalled();
    scheduler.schedule(0);
    jest.advanceTimersByTime(0); // the check phase
    jest.runOnlyPendingTimers();
    expect(flush).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(100); // the delayed flush was folded into it
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('keeps the earliest deadline among patient appends, and forgets it when cancelled', () => {
    scheduler.schedule(10);
    scheduler.schedule(100);
    jest.advanceTimersByTime(10);
    expect(flush).toHaveBeenCalledTimes(1);
    scheduler.schedule(10);
    scheduler.cancel();
    jest.advanceTimersByTime(50);
    expect(flush).toHaveBeenCalledTimes(1);
  });
});

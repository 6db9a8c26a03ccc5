import { SchedulerClock } from '../../src/schedules/scheduler-clock';
import { readModelTargets } from '../fixtures/read-model-targets';

/**
 * issue 30: the scheduler judges due times by PostgreSQL's clock there (so instances with skewed
 * clocks agree), by the machine's on SQLite. This machine's clock is put 5 s ahead to see which one wins.
 */
describe.each(readModelTargets())('scheduler clock on %s', (name, open) => {
  const SKEW_MS = 5_000;

  afterEach(() => jest.restoreAllMocks());

  it(name === 'PostgreSQL' ? "follows the database's clock, not a machine clock 5 s ahead" : "follows the machine's clock", async () => {
    const target = await open();
    const clock = new SchedulerClock(target.db);
    try {
      const realNow = Date.now.bind(Date);
      jest.spyOn(Date, 'now').mockImplementation(() => realNow() + SKEW_MS);
      await clock.start();
      const judged = clock.now().getTime() - realNow();
      if (name === 'PostgreSQL') {
        // Same host as the database: its clock is the real one, give or take the round trip.
        expect(Math.abs(judged)).toBeLessThan(1_000);
        expect(clock.offset).toBeLessThan(-SKEW_MS + 1_000);
      } else {
        expect(clock.offset).toBe(0);
        expect(judged).toBeGreaterThanOrEqual(SKEW_MS - 50);
      }
    } finally {
      clock.onModuleDestroy();
      await target.close();
    }
  });
});

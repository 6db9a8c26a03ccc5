import { countDueIn, MISSED_COUNT_CAP, missedCountText, ON_TIME_GRACE_MS, overlappingRun, planFirings, type PlannableSchedule } from './firing-plan';
import type { ScheduleTiming } from './schedule.events';

const cron = (expression: string, timeZone = 'UTC', endsAt: string | null = null): ScheduleTiming => ({ cron: expression, at: null, timeZone, endsAt });
const schedule = (timing: ScheduleTiming, cursorAt: string, catchUp: 'skip' | 'last' = 'skip'): PlannableSchedule => ({
  timing,
  catchUp,
  cursorAt: new Date(cursorAt),
});
const iso = (dates: Array<{ dueAt: Date }>) => dates.map((f) => f.dueAt.toISOString());

describe('firing plan', () => {
  describe('on time', () => {
    it('fires each due time in (cursor, now] within the grace, oldest first', async () => {
      const plan = await planFirings(schedule(cron('*/10 * * * * *'), '2026-03-01T09:00:00Z'), new Date('2026-03-01T09:00:25Z'));
      expect(plan).toEqual([
        { kind: 'fire', dueAt: new Date('2026-03-01T09:00:10Z'), trigger: 'cron', missedCount: 0, missedCapped: false },
        { kind: 'fire', dueAt: new Date('2026-03-01T09:00:20Z'), trigger: 'cron', missedCount: 0, missedCapped: false },
      ]);
    });

    it('fires a due time exactly at now, and nothing at or before the cursor', async () => {
      expect(iso(await planFirings(schedule(cron('0 9 * * *'), '2026-03-01T09:00:00Z'), new Date('2026-03-01T09:00:30Z')))).toEqual([]);
      expect(iso(await planFirings(schedule(cron('0 9 * * *'), '2026-03-01T08:59:00Z'), new Date('2026-03-01T09:00:00Z')))).toEqual([
        '2026-03-01T09:00:00.000Z',
      ]);
    });

    it('treats a due time exactly the grace old as on time, one ms older as missed', async () => {
      const due = '2026-03-01T09:00:00.000Z';
      const atEdge = await planFirings(schedule(cron('0 9 * * *'), '2026-03-01T08:00:00Z'), new Date(Date.parse(due) + ON_TIME_GRACE_MS));
      expect(atEdge).toEqual([{ kind: 'fire', dueAt: new Date(due), trigger: 'cron', missedCount: 0, missedCapped: false }]);
      const past = await planFirings(schedule(cron('0 9 * * *'), '2026-03-01T08:00:00Z'), new Date(Date.parse(due) + ON_TIME_GRACE_MS + 1));
      expect(past).toEqual([{ kind: 'skip_missed', dueAt: new Date(due), firstMissedAt: new Date(due), missedCount: 1, missedCapped: false }]);
    });

    it('fires a one-off time with trigger at, once', async () => {
      const timing: ScheduleTiming = { cron: null, at: '2026-03-01T09:00:00Z', timeZone: 'UTC', endsAt: null };
      expect(await planFirings(schedule(timing, '2026-03-01T08:00:00Z'), new Date('2026-03-01T09:00:01Z'))).toEqual([
        { kind: 'fire', dueAt: new Date('2026-03-01T09:00:00Z'), trigger: 'at', missedCount: 0, missedCapped: false },
      ]);
      expect(await planFirings(schedule(timing, '2026-03-01T09:00:00Z'), new Date('2026-03-01T09:00:30Z'))).toEqual([]);
    });

    it('fires nothing past the end date', async () => {
      const plan = await planFirings(
        schedule(cron('*/10 * * * * *', 'UTC', '2026-03-01T09:00:15Z'), '2026-03-01T09:00:00Z'),
        new Date('2026-03-01T09:00:40Z'),
      );
      expect(iso(plan)).toEqual(['2026-03-01T09:00:10.000Z']);
    });
  });

  describe('catch-up after downtime', () => {
    // Hourly; the service was down from 09:30 to 13:00:30: 10:00, 11:00 and 12:00 were missed, 13:00 is on time.
    const hourly = cron('0 * * * *');
    const now = new Date('2026-03-01T13:00:30Z');

    it('skip: one skipped record for every missed due time, named by the newest, then the on-time firing', async () => {
      expect(await planFirings(schedule(hourly, '2026-03-01T09:30:00Z', 'skip'), now)).toEqual([
        {
          kind: 'skip_missed',
          dueAt: new Date('2026-03-01T12:00:00Z'),
          firstMissedAt: new Date('2026-03-01T10:00:00Z'),
          missedCount: 3,
          missedCapped: false,
        },
        { kind: 'fire', dueAt: new Date('2026-03-01T13:00:00Z'), trigger: 'cron', missedCount: 0, missedCapped: false },
      ]);
    });

    it('last: the newest missed due time fires once (catch_up, the others counted), then the on-time firing', async () => {
      expect(await planFirings(schedule(hourly, '2026-03-01T09:30:00Z', 'last'), now)).toEqual([
        { kind: 'fire', dueAt: new Date('2026-03-01T12:00:00Z'), trigger: 'catch_up', missedCount: 2, missedCapped: false },
        { kind: 'fire', dueAt: new Date('2026-03-01T13:00:00Z'), trigger: 'cron', missedCount: 0, missedCapped: false },
      ]);
    });

    it('last: a single missed one-off time fires once with nothing else missed', async () => {
      const timing: ScheduleTiming = { cron: null, at: '2026-03-01T10:00:00Z', timeZone: 'UTC', endsAt: null };
      expect(await planFirings(schedule(timing, '2026-03-01T09:00:00Z', 'last'), now)).toEqual([
        { kind: 'fire', dueAt: new Date('2026-03-01T10:00:00Z'), trigger: 'catch_up', missedCount: 0, missedCapped: false },
      ]);
    });

    // These walk 10,000 croner steps a call by design (about half a second on a quiet core): jest's 5 s default
    // is a stopwatch on a shared CI core, not a property of the count (one ran out beside the browser tier).
    it('counts a per-second schedule down for a day up to the cap, and says "10,000 or more"', async () => {
      const [skip] = await planFirings(schedule(cron('* * * * * *'), '2026-03-01T00:00:00Z'), new Date('2026-03-02T00:00:00Z'));
      expect(skip).toMatchObject({ kind: 'skip_missed', dueAt: new Date('2026-03-01T23:58:59Z'), missedCount: MISSED_COUNT_CAP, missedCapped: true });
      expect(missedCountText(MISSED_COUNT_CAP, true)).toBe('10,000 or more');
      expect(missedCountText(3, false)).toBe('3');
    }, 30_000);

    it('counts exactly the cap without calling it more', async () => {
      const timing = cron('* * * * * *');
      const from = new Date('2026-03-01T00:00:00Z');
      expect(await countDueIn(timing, from, new Date(from.getTime() + MISSED_COUNT_CAP * 1000))).toMatchObject({ count: MISSED_COUNT_CAP, capped: false });
      expect(await countDueIn(timing, from, new Date(from.getTime() + (MISSED_COUNT_CAP + 1) * 1000))).toMatchObject({
        count: MISSED_COUNT_CAP,
        capped: true,
      });
    }, 30_000);
  });

  describe('time zones and DST', () => {
    // A schedule done up to `cursorAt`, planned at `now` with due times within `graceMs` on time: the due times it fires.
    it.each([
      // 2026-03-29: 02:00 CET → 03:00 CEST (01:00Z). 02:30 does not exist that night.
      [
        'Europe/Berlin spring forward: 02:30 daily fires at 03:00 on the night 02:00 becomes 03:00, once',
        cron('30 2 * * *', 'Europe/Berlin'),
        '2026-03-28T00:00:00Z',
        '2026-03-29T01:00:30Z',
        3 * 86_400_000,
        ['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z'],
      ],
      // 2026-10-25: 03:00 CEST → 02:00 CET (01:00Z); 02:30 is 00:30Z (CEST) and 01:30Z (CET).
      [
        'Europe/Berlin fall back: 02:30 daily fires once on the night 02:30 happens twice, at its first occurrence',
        cron('30 2 * * *', 'Europe/Berlin'),
        '2026-10-24T12:00:00Z',
        '2026-10-25T12:00:00Z',
        86_400_000,
        ['2026-10-25T00:30:00.000Z'],
      ],
      // 2026-03-08: EST → EDT. Friday 6th and Monday 9th.
      [
        'America/New_York: 09:00 weekdays keeps 09:00 local across the March change (14:00Z before, 13:00Z after)',
        cron('0 9 * * 1-5', 'America/New_York'),
        '2026-03-05T15:00:00Z',
        '2026-03-09T13:00:00Z',
        7 * 86_400_000,
        ['2026-03-06T14:00:00.000Z', '2026-03-09T13:00:00.000Z'],
      ],
      [
        'America/New_York fall back: 01:30 daily fires once on 2026-11-01 (01:30 happens twice)',
        cron('30 1 * * *', 'America/New_York'),
        '2026-10-31T12:00:00Z',
        '2026-11-01T12:00:00Z',
        86_400_000,
        ['2026-11-01T05:30:00.000Z'],
      ],
    ])('%s', async (_label, timing, cursorAt, now, graceMs, dueTimes) => {
      const plan = await planFirings(schedule(timing, cursorAt), new Date(now), graceMs);
      expect(iso(plan)).toEqual(dueTimes);
    });

    it('Europe/Berlin: an hourly schedule has 23 due times on the spring day and 25 on the autumn day', async () => {
      const hourly = cron('0 * * * *', 'Europe/Berlin');
      expect((await countDueIn(hourly, new Date('2026-03-28T22:59:59Z'), new Date('2026-03-29T21:59:59Z'))).count).toBe(23);
      expect((await countDueIn(hourly, new Date('2026-10-24T21:59:59Z'), new Date('2026-10-25T22:59:59Z'))).count).toBe(25);
    });

    it('missed due times in a zone are counted in that zone (catch-up across the Berlin spring change)', async () => {
      // Down from Saturday 12:00Z to Monday 12:00Z: 02:30 daily missed on the 28th (01:30Z) and 29th (01:00Z, the gap).
      const [missed] = await planFirings(schedule(cron('30 2 * * *', 'Europe/Berlin'), '2026-03-27T12:00:00Z'), new Date('2026-03-30T00:00:00Z'));
      expect(missed).toEqual({
        kind: 'skip_missed',
        dueAt: new Date('2026-03-29T01:00:00Z'),
        firstMissedAt: new Date('2026-03-28T01:30:00Z'),
        missedCount: 2,
        missedCapped: false,
      });
    });
  });

  describe('overlap', () => {
    it('skip: blocked while the previous firing is starting or its run is running', async () => {
      expect(overlappingRun('skip', { status: 'starting', runId: 'r1', runStatus: null })).toBe('r1');
      expect(overlappingRun('skip', { status: 'started', runId: 'r1', runStatus: 'running' })).toBe('r1');
    });

    it('skip: not blocked once that run ended, or when the previous firing started nothing', async () => {
      for (const runStatus of ['completed', 'failed', 'stopped', 'interrupted']) {
        expect(overlappingRun('skip', { status: 'started', runId: 'r1', runStatus })).toBeNull();
      }
      expect(overlappingRun('skip', { status: 'failed', runId: 'r1', runStatus: null })).toBeNull();
      expect(overlappingRun('skip', { status: 'skipped', runId: null, runStatus: null })).toBeNull();
      expect(overlappingRun('skip', undefined)).toBeNull();
    });

    it('allow: never blocked', async () => {
      expect(overlappingRun('allow', { status: 'started', runId: 'r1', runStatus: 'running' })).toBeNull();
    });
  });
});

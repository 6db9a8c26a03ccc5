import type { ScheduleTiming } from './schedule.events';
import { dueTimesAfter, lastDueIn, nextDueAfter, timingProblems } from './schedule-timing';

const cron = (expression: string, timeZone = 'UTC', endsAt: string | null = null): ScheduleTiming => ({ cron: expression, at: null, timeZone, endsAt });
const at = (instant: string): ScheduleTiming => ({ cron: null, at: instant, timeZone: 'UTC', endsAt: null });
const iso = (dates: Array<Date | null>) => dates.map((d) => d?.toISOString() ?? null);

describe('schedule timing', () => {
  it('accepts 5 fields, and 6 with seconds first', () => {
    expect(timingProblems(cron('30 6 * * 1-5', 'Europe/Berlin'))).toEqual([]);
    expect(timingProblems(cron('*/10 * * * * *'))).toEqual([]);
    expect(timingProblems(at('2026-12-01T09:00:00Z'))).toEqual([]);
  });

  it('names every problem: field count, a bad field, an unknown zone, both or neither of cron and at, instants without a zone', () => {
    expect(timingProblems(cron('* * *'))).toEqual(['cron must have 5 fields (minute hour day month weekday) or 6 with seconds first; "* * *" has 3']);
    expect(timingProblems(cron('61 * * * *', 'Mars/Base'))).toEqual([
      'timeZone Mars/Base is not an IANA time zone (e.g. UTC, Europe/Berlin, America/New_York)',
      'cron "61 * * * *" is not valid: Invalid value for minute: 61',
    ]);
    expect(timingProblems({ cron: '* * * * *', at: '2026-12-01T09:00:00Z', timeZone: 'UTC', endsAt: null })).toEqual([
      'give exactly one of cron (a cron expression) or at (one time, ISO 8601)',
    ]);
    expect(timingProblems({ cron: null, at: null, timeZone: 'UTC', endsAt: null })).toEqual([
      'give exactly one of cron (a cron expression) or at (one time, ISO 8601)',
    ]);
    expect(timingProblems({ ...at('2026-12-01'), endsAt: '2026-12-02T10:00' })).toEqual([
      'at must be an ISO 8601 time with a zone (e.g. 2026-12-01T09:00:00Z); got 2026-12-01',
      'endsAt must be an ISO 8601 time with a zone; got 2026-12-02T10:00',
    ]);
  });

  it('lists due times strictly after a time, in the zone, and none past the end', () => {
    expect(iso(dueTimesAfter(cron('0 9 * * *', 'Asia/Tokyo'), new Date('2026-12-01T00:00:00Z'), 2))).toEqual([
      '2026-12-02T00:00:00.000Z',
      '2026-12-03T00:00:00.000Z',
    ]);
    expect(iso(dueTimesAfter(cron('0 * * * *'), new Date('2026-12-01T10:00:00Z'), 1))).toEqual(['2026-12-01T11:00:00.000Z']);
    expect(iso(dueTimesAfter(cron('0 * * * *', 'UTC', '2026-12-01T12:00:00Z'), new Date('2026-12-01T10:00:00Z'), 5))).toEqual([
      '2026-12-01T11:00:00.000Z',
      '2026-12-01T12:00:00.000Z',
    ]);
  });

  it('fires a one-off time once: after it, nothing is due', () => {
    const once = at('2026-12-01T09:00:00Z');
    expect(iso([nextDueAfter(once, new Date('2026-12-01T08:59:59Z'))])).toEqual(['2026-12-01T09:00:00.000Z']);
    expect(nextDueAfter(once, new Date('2026-12-01T09:00:00Z'))).toBeNull();
  });

  it('finds the newest due time of a window, the window end included and its start left out', () => {
    const every10s = cron('*/10 * * * * *');
    expect(iso([lastDueIn(every10s, new Date('2026-12-01T00:00:00Z'), new Date('2026-12-01T00:00:30Z'))])).toEqual(['2026-12-01T00:00:30.000Z']);
    expect(iso([lastDueIn(every10s, new Date('2026-12-01T00:00:29Z'), new Date('2026-12-01T00:00:35Z'))])).toEqual(['2026-12-01T00:00:30.000Z']);
    expect(lastDueIn(every10s, new Date('2026-12-01T00:00:30Z'), new Date('2026-12-01T00:00:39Z'))).toBeNull();
    // A day of a per-second schedule is one backward step, not 86,400 forward ones.
    const daily = lastDueIn(cron('* * * * * *'), new Date('2026-11-30T00:00:00Z'), new Date('2026-12-01T00:00:00Z'));
    expect(daily?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(
      lastDueIn(cron('0 * * * *', 'UTC', '2026-12-01T05:30:00Z'), new Date('2026-12-01T00:00:00Z'), new Date('2026-12-01T09:00:00Z'))?.toISOString(),
    ).toBe('2026-12-01T05:00:00.000Z');
  });
});

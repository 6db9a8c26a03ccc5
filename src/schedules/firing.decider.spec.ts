import { deciderSpec } from '../../test/fixtures/decider-spec';
import { firingDecider } from './firing.decider';
import { dueFiringId, manualFiringId, SCHEDULE_FIRING_NAMESPACE } from './firing-id';
import { FiringStateError } from './schedule.errors';
import { type FiringClaimedData, type FiringEvent, ScheduleEvents } from './schedule.events';

const given = deciderSpec(firingDecider);
const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const claim: Omit<FiringClaimedData, 'attempt'> = {
  firingId: 'f1',
  scheduleId: 's1',
  dueAt: '2026-11-27T10:00:00.000Z',
  trigger: 'cron',
  runId: 'run-1',
  instanceId: 'i1',
  firedAt: '2026-11-27T10:00:00.120Z',
  missedCount: 0,
};
const claimed: FiringEvent = { type: ScheduleEvents.firingClaimed, data: { ...claim, attempt: 1 } };
const started: FiringEvent = {
  type: ScheduleEvents.firingStarted,
  data: { firingId: 'f1', scheduleId: 's1', runId: 'run-1', startedAt: '2026-11-27T10:00:00.300Z' },
};
const failure = { code: 'cli_unavailable', message: 'the CLI is down', retryAt: '2026-11-27T10:00:10.300Z', failedAt: '2026-11-27T10:00:00.300Z' };
const failedRetrying: FiringEvent = {
  type: ScheduleEvents.firingFailed,
  data: { firingId: 'f1', scheduleId: 's1', runId: 'run-1', attempt: 1, ...failure },
};
const skip = {
  firingId: 'f1',
  scheduleId: 's1',
  dueAt: '2026-11-27T10:00:00.000Z',
  trigger: 'cron' as const,
  reason: 'overlap' as const,
  message: 'run run-0 still runs',
  runningRunId: 'run-0',
  missedCount: 0,
  instanceId: 'i1',
  skippedAt: '2026-11-27T10:00:00.120Z',
};

describe('firingDecider', () => {
  it('claims an unrecorded firing as attempt 1, and only once: a second claim is refused', () => {
    given().when({ type: 'claim', claim, now: T0 }).then([claimed]);
    given(claimed)
      .when({ type: 'claim', claim, now: T0 })
      .thenThrows(FiringStateError, /Firing f1 is starting; it cannot be claimed/);
  });

  it('records the claimed run started once; a second completion (claimer and takeover both) records nothing', () => {
    given(claimed).when({ type: 'start', startedAt: '2026-11-27T10:00:00.300Z' }).then([started]);
    given(claimed, started).when({ type: 'start', startedAt: '2026-11-27T10:00:05.000Z' }).then([]);
    given()
      .when({ type: 'start', startedAt: '2026-11-27T10:00:00.300Z' })
      .thenThrows(FiringStateError, /not recorded; it cannot be started/);
  });

  it('records a refused start with its reason and retry time, and claims again as the next attempt once that time has come', () => {
    given(claimed).when({ type: 'fail', failure }).then([failedRetrying]);
    given(claimed, failedRetrying)
      .when({ type: 'claim', claim: { ...claim, runId: 'run-2' }, now: T0 + 5_000 })
      .thenThrows(FiringStateError, /retrying at 2026-11-27T10:00:10.300Z; it cannot be claimed/);
    given(claimed, failedRetrying)
      .when({ type: 'claim', claim: { ...claim, runId: 'run-2' }, now: T0 + 10_300 })
      .then([{ type: ScheduleEvents.firingClaimed, data: { ...claim, runId: 'run-2', attempt: 2 } }]);
  });

  it('fails a retrying firing for good (the schedule was disabled meanwhile), and nothing claims it after', () => {
    const final = { ...failure, code: 'schedule_disabled', message: 'disabled', retryAt: null };
    const failedForGood: FiringEvent = {
      type: ScheduleEvents.firingFailed,
      data: { firingId: 'f1', scheduleId: 's1', runId: 'run-1', attempt: 1, ...final },
    };
    given(claimed, failedRetrying).when({ type: 'fail', failure: final }).then([failedForGood]);
    given(claimed, failedForGood)
      .when({ type: 'claim', claim, now: T0 + 60_000 })
      .thenThrows(FiringStateError, /Firing f1 is failed/);
    given(claimed, started)
      .when({ type: 'fail', failure })
      .thenThrows(FiringStateError, /Firing f1 is started; it cannot be failed/);
  });

  it('skips only an unrecorded firing', () => {
    given()
      .when({ type: 'skip', skip })
      .then([{ type: ScheduleEvents.firingSkipped, data: skip }]);
    given(claimed)
      .when({ type: 'skip', skip })
      .thenThrows(FiringStateError, /Firing f1 is starting; it cannot be skipped/);
  });
});

describe('firing ids', () => {
  it('derives a due firing id from the schedule and the due time alone, so every instance derives the same one', () => {
    const due = new Date('2026-11-27T10:00:00.000Z');
    expect(dueFiringId('s1', due)).toBe(dueFiringId('s1', new Date(due.getTime())));
    expect(dueFiringId('s1', due)).not.toBe(dueFiringId('s2', due));
    expect(dueFiringId('s1', due)).not.toBe(dueFiringId('s1', new Date(due.getTime() + 1000)));
    expect(dueFiringId('s1', due)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Pinned: a changed namespace would give running schedules new ids for the same due times.
    expect(SCHEDULE_FIRING_NAMESPACE).toBe('20227b90-a874-444b-8059-2f967d924ea5');
    expect(dueFiringId('s1', due)).toBe('2ae1d7f0-2fa1-5f0c-9a6f-7d3e4305ad86');
  });

  it('gives every manual firing a fresh id', () => {
    expect(manualFiringId()).not.toBe(manualFiringId());
  });
});

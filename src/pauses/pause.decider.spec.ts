import { deciderSpec } from '../../test/fixtures/decider-spec';
import { pauseDecider } from './pause.decider';
import { PauseStateError } from './pause.errors';
import { type PauseEvent, PauseEvents } from './pause.events';

const given = deciderSpec(pauseDecider);
const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const pause = { pauseId: 'p1', target: 'run' as const, runId: 'r1', sessionId: 'sub-agent-r1', runPath: '/r0/r1/', pausedBy: 'console' };
const paused: PauseEvent = { type: PauseEvents.paused, data: { ...pause, pausedAt: '2026-11-27T10:00:00.000Z' } };
const unpaused: PauseEvent = {
  type: PauseEvents.unpaused,
  data: { pauseId: 'p1', target: 'run', runId: 'r1', sessionId: 'sub-agent-r1', unpausedBy: 'api', pausedMs: 90_000 },
};

describe('pauseDecider', () => {
  it('opens a pause with who paused it and when', () => {
    given().when({ type: 'pause', pause, now: T0 }).then([paused]);
  });

  it('refuses a second pause while one is open, naming since when and by whom (409)', () => {
    given(paused)
      .when({ type: 'pause', pause: { ...pause, pauseId: 'p2', pausedBy: 'api' }, now: T0 + 1 })
      .thenThrows(PauseStateError, /Run r1 is already paused \(since 2026-11-27T10:00:00.000Z, by console\)/);
  });

  it('closes the open pause with who unpaused it and how long it held', () => {
    given(paused)
      .when({ type: 'unpause', target: 'run', id: 'r1', unpausedBy: 'api', now: T0 + 90_000 })
      .then([unpaused]);
  });

  it('refuses an unpause of a target that is not paused (409), before any pause and after the last one closed', () => {
    given()
      .when({ type: 'unpause', target: 'session', id: 's1', unpausedBy: 'api', now: T0 })
      .thenThrows(PauseStateError, /Session s1 is not paused/);
    given(paused, unpaused)
      .when({ type: 'unpause', target: 'run', id: 'r1', unpausedBy: 'api', now: T0 })
      .thenThrows(PauseStateError, /Run r1 is not paused/);
  });

  it('pauses again after an unpause, as a new interval', () => {
    given(paused, unpaused)
      .when({ type: 'pause', pause: { ...pause, pauseId: 'p2' }, now: T0 + 100_000 })
      .then([{ type: PauseEvents.paused, data: { ...pause, pauseId: 'p2', pausedAt: '2026-11-27T10:01:40.000Z' } }]);
  });
});

import { ExpectedVersionConflictError } from '../event-store.errors';
import { commitPlan, planPredictedGroup, planRequest, type KnownStream } from './append-plan';

const event = (type = 'Happened') => ({ type, data: { n: 1 } });

describe('planRequest', () => {
  it('numbers events after the known version and keeps given event ids', () => {
    const known = new Map<string, KnownStream>([['s', { version: 2 }]]);
    const plan = planRequest([{ streamId: 's', expectedVersion: 2, events: [{ ...event(), eventId: 'e-1' }, event('Next')] }], known);
    if (!('parts' in plan)) throw new Error('expected a plan');
    expect(plan.parts).toEqual([
      {
        streamId: 's',
        nextExpectedVersion: 4,
        events: [
          expect.objectContaining({ eventId: 'e-1', streamPosition: 3, type: 'Happened', metadata: {} }),
          expect.objectContaining({ streamPosition: 4, type: 'Next' }),
        ],
      },
    ]);
    expect(known.get('s')).toEqual({ version: 2 }); // planning alone moves nothing
  });

  it.each([
    ['a number that is not the version', 1, true],
    ['no_stream on an existing stream', 'no_stream', true],
    ['stream_exists on a missing stream', 'stream_exists', false],
  ] as const)('refuses %s with the SQLite store conflict error', (_, expectedVersion, exists) => {
    const known = new Map<string, KnownStream>(exists ? [['s', { version: 2 }]] : []);
    const plan = planRequest([{ streamId: 's', expectedVersion, events: [event()] }], known);
    expect('conflict' in plan && plan.conflict).toBeInstanceOf(ExpectedVersionConflictError);
    expect('conflict' in plan && plan.conflict.code).toBe('expected_version_conflict');
  });

  it('accepts any, no_stream on a new stream, stream_exists on an existing one', () => {
    const known = new Map<string, KnownStream>([['old', { version: 1 }]]);
    expect('parts' in planRequest([{ streamId: 'x', expectedVersion: 'any', events: [event()] }], known)).toBe(true);
    expect('parts' in planRequest([{ streamId: 'new', expectedVersion: 'no_stream', events: [event()] }], known)).toBe(true);
    expect('parts' in planRequest([{ streamId: 'old', expectedVersion: 'stream_exists', events: [event()] }], known)).toBe(true);
  });

  it('refuses a whole appendMany when its last part conflicts', () => {
    const known = new Map<string, KnownStream>([['b', { version: 1 }]]);
    const plan = planRequest(
      [
        { streamId: 'a', expectedVersion: 0, events: [event()] },
        { streamId: 'b', expectedVersion: 0, events: [event()] },
      ],
      known,
    );
    expect(plan).toEqual({ conflict: expect.objectContaining({ streamId: 'b', actual: 1 }) });
  });

  it('a later request of the group sees the versions an earlier one committed', () => {
    const known = new Map<string, KnownStream>();
    const first = planRequest([{ streamId: 's', expectedVersion: 0, events: [event(), event()] }], known);
    if (!('parts' in first)) throw new Error('expected a plan');
    commitPlan(first, known);
    expect(planRequest([{ streamId: 's', expectedVersion: 0, events: [event()] }], known)).toEqual({ conflict: expect.objectContaining({ actual: 2 }) });
    const second = planRequest([{ streamId: 's', expectedVersion: 2, events: [event()] }], known);
    expect('parts' in second && second.parts[0].events[0].streamPosition).toBe(3);
  });
});

describe('planPredictedGroup', () => {
  const nothingRemembered = () => undefined;
  const positionsOf = (plan: ReturnType<typeof planRequest>) =>
    'parts' in plan ? plan.parts.flatMap((p) => p.events.map((e) => `${p.streamId}@${e.streamPosition}`)) : plan.conflict;

  it('numbers from the expected version, or from nothing for no_stream, without reading', () => {
    const plans = planPredictedGroup(
      [[{ streamId: 'a', expectedVersion: 4, events: [event()] }], [{ streamId: 'b', expectedVersion: 'no_stream', events: [event(), event()] }]],
      nothingRemembered,
    );
    expect(plans?.map(positionsOf)).toEqual([['a@5'], ['b@1', 'b@2']]);
  });

  it('any and stream_exists need the version the store remembers; without it the group is read first', () => {
    expect(planPredictedGroup([[{ streamId: 'a', expectedVersion: 'any', events: [event()] }]], nothingRemembered)).toBeUndefined();
    expect(planPredictedGroup([[{ streamId: 'a', expectedVersion: 'stream_exists', events: [event()] }]], nothingRemembered)).toBeUndefined();
    const plans = planPredictedGroup([[{ streamId: 'a', expectedVersion: 'any', events: [event()] }]], () => 7);
    expect(plans?.map(positionsOf)).toEqual([['a@8']]);
  });

  it('an expectation the remembered version contradicts is read first (likely a real conflict, reported as the checked path does)', () => {
    expect(planPredictedGroup([[{ streamId: 'a', expectedVersion: 3, events: [event()] }]], () => 5)).toBeUndefined();
    expect(planPredictedGroup([[{ streamId: 'a', expectedVersion: 'no_stream', events: [event()] }]], () => 5)).toBeUndefined();
  });

  it('later requests of the group follow the accepted ones, and conflict only with them', () => {
    const plans = planPredictedGroup(
      [
        [{ streamId: 's', expectedVersion: 2, events: [event()] }],
        [{ streamId: 's', expectedVersion: 2, events: [event()] }],
        [{ streamId: 's', expectedVersion: 'any', events: [event()] }],
      ],
      nothingRemembered,
    );
    expect(plans?.map(positionsOf)).toEqual([['s@3'], expect.objectContaining({ streamId: 's', actual: 3 }), ['s@4']]);
  });

  it("a refused request's guesses are dropped: a later request guesses afresh", () => {
    const plans = planPredictedGroup(
      [
        [{ streamId: 'taken', expectedVersion: 'no_stream', events: [event()] }],
        [
          { streamId: 'other', expectedVersion: 1, events: [event()] },
          { streamId: 'taken', expectedVersion: 'no_stream', events: [event()] },
        ],
        [{ streamId: 'other', expectedVersion: 6, events: [event()] }],
      ],
      nothingRemembered,
    );
    expect(plans?.map(positionsOf)).toEqual([['taken@1'], expect.objectContaining({ streamId: 'taken' }), ['other@7']]);
  });
});

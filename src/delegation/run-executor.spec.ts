import { sessionReplayOf } from './run-executor';

describe("sessionReplayOf (issue 26): what a replay tree's run session is answered from", () => {
  it("points at the original run's thread, with the fork point and changes", () => {
    expect(
      sessionReplayOf({
        of: 'run-1',
        mode: 'fork',
        onDivergence: 'live',
        allowSideEffects: false,
        fromModelCall: 'call-3',
        fromStartedAt: '2026-11-27T22:00:00.000Z',
        message: 'try again',
        agentOverrides: { worker: { model: 'gpt-5' } },
        requestedBy: 'console',
      }),
    ).toEqual({
      originalSessionId: 'sub-agent-run-1',
      originalRunId: 'run-1',
      mode: 'fork',
      onDivergence: 'live',
      allowSideEffects: false,
      liveFrom: { callId: 'call-3', startedAt: '2026-11-27T22:00:00.000Z' },
      message: 'try again',
      agentOverrides: { worker: { model: 'gpt-5' } },
    });
  });

  it('has no original session for a child the original never started: every call of it goes its own way', () => {
    expect(sessionReplayOf({ mode: 'replay', onDivergence: 'stop', allowSideEffects: true, requestedBy: 'api' })).toEqual({
      mode: 'replay',
      onDivergence: 'stop',
      allowSideEffects: true,
    });
  });
});

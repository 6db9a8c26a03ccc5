import type { StoredEvent } from '../event-store';
import { divergenceStopOf } from './replay-divergence-stop';

const event = (type: string, data: Record<string, unknown>): StoredEvent =>
  ({ type, data, streamId: 'model_call-1', streamPosition: 1, globalPosition: 1, recordedAt: '2026-11-27T22:00:00.000Z', metadata: {} }) as StoredEvent;

describe('divergenceStopOf (issue 26)', () => {
  const refusal = { limit: 'replay_divergence', rootRunId: 'root-1', sessionId: 'sub-agent-2', message: 'the replay stopped at call 2 of agent worker' };

  it("stops the replay tree's root at a replay_divergence refusal, its turn left to end on the message", () => {
    expect(divergenceStopOf(event('model_call.refused', refusal))).toEqual({ rootRunId: 'root-1', sessionId: 'sub-agent-2', message: refusal.message });
  });

  it("leaves a budget's refusal, another event, and a session's call outside any run alone", () => {
    expect(divergenceStopOf(event('model_call.refused', { ...refusal, limit: 'max_tokens' }))).toBeUndefined();
    expect(divergenceStopOf(event('model_call.finished', refusal))).toBeUndefined();
    expect(divergenceStopOf(event('model_call.refused', { ...refusal, rootRunId: undefined }))).toBeUndefined();
  });
});

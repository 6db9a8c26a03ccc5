import fc from 'fast-check';
import type { StoredEvent } from '../../event-store';
import type { BatchInvariant } from '../../projections';
import { expectInvariantHolds, type LogEvent } from '../../../test/fixtures/batch-invariant-property';
import { streamsAreIndependent, streamSummaryDeltas } from './stream-summaries.pg-projection';
import { StreamSummariesProjection } from './stream-summaries.projection';

const stored = (globalPosition: number, streamId: string, type: string): StoredEvent => ({
  globalPosition,
  eventId: `e${globalPosition}`,
  streamId,
  streamPosition: 1,
  type,
  data: {},
  metadata: {},
  recordedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, globalPosition)).toISOString(),
});

describe('streamSummaryDeltas', () => {
  it('folds a batch into one row per stream: its count, its first time, its last event', () => {
    const deltas = streamSummaryDeltas([stored(1, 'run-a', 'Started'), stored(2, 'agent-b', 'Created'), stored(3, 'run-a', 'Finished')]);
    expect(deltas).toEqual([
      {
        stream_id: 'run-a',
        category: 'run',
        event_count: 2,
        last_event_type: 'Finished',
        last_global_position: 3,
        first_recorded_at: '2026-01-01T00:00:01.000Z',
        last_recorded_at: '2026-01-01T00:00:03.000Z',
      },
      {
        stream_id: 'agent-b',
        category: 'agent',
        event_count: 1,
        last_event_type: 'Created',
        last_global_position: 2,
        first_recorded_at: '2026-01-01T00:00:02.000Z',
        last_recorded_at: '2026-01-01T00:00:02.000Z',
      },
    ]);
  });

  it('has nothing for an empty batch', () => {
    expect(streamSummaryDeltas([])).toEqual([]);
  });
});

const streamsLogs: fc.Arbitrary<LogEvent[][]> = fc.array(
  fc.array(
    fc
      .record({ streamId: fc.constantFrom('run-a', 'run-b', 'agent-c', 'session-d'), type: fc.constantFrom('Started', 'Moved', 'Ended') })
      .map((e) => ({ ...e, data: {} })),
    { maxLength: 12 },
  ),
  { minLength: 1, maxLength: 5 },
);

describe('streamsAreIndependent: what the stream-summaries set-based form relies on, checked against StreamSummariesProjection', () => {
  it('is the invariant the stream-summaries projection names for its PostgreSQL form', () => {
    expect(new StreamSummariesProjection().setBased.postgres.invariant).toBe(streamsAreIndependent);
  });

  it('the batch handled stream by stream leaves the same rows', () => {
    expectInvariantHolds({ projection: new StreamSummariesProjection(), table: 'stream_summaries', orderBy: 'stream_id', logs: streamsLogs });
  });

  it("the check can fail: a stream's events out of their order leave another last event", () => {
    const backwards: BatchInvariant = { name: 'backwards', statement: 'wrong on purpose', normalForm: (events) => [...events].reverse() };
    expect(() =>
      expectInvariantHolds({
        projection: new StreamSummariesProjection(),
        invariant: backwards,
        table: 'stream_summaries',
        orderBy: 'stream_id',
        logs: streamsLogs,
      }),
    ).toThrow(/backwards does not hold for stream-summaries/);
  });
});

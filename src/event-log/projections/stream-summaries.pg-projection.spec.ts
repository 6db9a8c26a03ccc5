import type { StoredEvent } from '../../event-store/event-store.types';
import { streamSummaryDeltas } from './stream-summaries.pg-projection';

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

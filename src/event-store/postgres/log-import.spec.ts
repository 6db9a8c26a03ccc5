import type { StoredEvent } from '../event-store.types';
import { firstEventWithNul, streamVersionsOf } from './log-import';

const event = (globalPosition: number, streamId: string, streamPosition: number, data: Record<string, unknown> = {}): StoredEvent => ({
  globalPosition,
  eventId: `e${globalPosition}`,
  streamId,
  streamPosition,
  type: 'T',
  data,
  metadata: {},
  recordedAt: `2026-01-01T00:00:0${globalPosition}.000Z`,
});

describe('log import', () => {
  it('folds a batch to one streams row per stream, at its last position', () => {
    const rows = streamVersionsOf([event(1, 'a-1', 3), event(2, 'b-1', 1), event(3, 'a-1', 4)]);
    expect(rows).toEqual([
      { stream_id: 'a-1', version: 4, created_at: '2026-01-01T00:00:01.000Z', updated_at: '2026-01-01T00:00:03.000Z' },
      { stream_id: 'b-1', version: 1, created_at: '2026-01-01T00:00:02.000Z', updated_at: '2026-01-01T00:00:02.000Z' },
    ]);
  });

  it('finds the first event holding U+0000 in a value or a key, however deep', () => {
    expect(firstEventWithNul([event(1, 'a-1', 1, { text: 'a\\u0000 is text' })])).toBeUndefined();
    expect(firstEventWithNul([event(1, 'a-1', 1), event(2, 'a-1', 2, { list: [{ deep: 'x\0y' }] })])?.eventId).toBe('e2');
    expect(firstEventWithNul([event(1, 'a-1', 1, { ['k\0']: 1 })])?.eventId).toBe('e1');
  });
});

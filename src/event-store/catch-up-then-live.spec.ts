import { Subject } from 'rxjs';
import { catchUpThenLive } from './catch-up-then-live';
import type { StoredEvent } from './event-store.types';

const at = (globalPosition: number, streamId = 's-1'): StoredEvent => ({
  globalPosition,
  eventId: `e${globalPosition}`,
  streamId,
  streamPosition: globalPosition,
  type: 'T',
  data: {},
  metadata: {},
  recordedAt: '2026-01-01T00:00:00.000Z',
});

/** Lets the loop turn until `done` (reads are promises, pages after the first wait for setImmediate). */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; !done(); turn++) {
    if (turn > 100) throw new Error('never happened');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('catchUpThenLive', () => {
  it('with an asynchronous log: buffers what goes live during the replay and delivers each position once, in order', async () => {
    const live = new Subject<StoredEvent>();
    const log = [1, 2, 3, 4, 5].map((p) => at(p));
    const reads: number[] = [];
    let releaseRead!: () => void;
    const seen: number[] = [];
    catchUpThenLive(
      {
        live$: live,
        pageSize: 2,
        positionOf: (e) => e.globalPosition,
        matches: () => true,
        readPage: async (after) => {
          reads.push(after);
          // The second page waits: events go live meanwhile, some already in the log, one after it.
          if (after === 2) await new Promise<void>((resolve) => (releaseRead = resolve));
          return log.filter((e) => e.globalPosition > after).slice(0, 2);
        },
      },
      0,
    ).subscribe((e) => seen.push(e.globalPosition));
    await until(() => reads.length === 2);
    live.next(at(4));
    live.next(at(5));
    live.next(at(6));
    expect(seen).toEqual([1, 2]);
    releaseRead();
    await until(() => seen.length === 6);
    live.next(at(7));
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(reads).toEqual([0, 2, 4]);
  });

  it('with a synchronous log: delivers the replay within subscribe, then only the matching live events', () => {
    const live = new Subject<StoredEvent>();
    const seen: string[] = [];
    catchUpThenLive(
      {
        live$: live,
        pageSize: 500,
        positionOf: (e) => e.streamPosition,
        matches: (e) => e.streamId === 's-1',
        readPage: (after) => [at(1), at(2)].filter((e) => e.streamPosition > after),
      },
      1,
    ).subscribe((e) => seen.push(`${e.streamId}@${e.streamPosition}`));
    expect(seen).toEqual(['s-1@2']);
    live.next(at(3, 's-2'));
    live.next(at(3));
    expect(seen).toEqual(['s-1@2', 's-1@3']);
  });

  it('fails the subscription when a read fails', async () => {
    const errors: unknown[] = [];
    catchUpThenLive(
      {
        live$: new Subject<StoredEvent>(),
        pageSize: 10,
        positionOf: (e) => e.globalPosition,
        matches: () => true,
        readPage: () => Promise.reject(new Error('gone')),
      },
      0,
    ).subscribe({ error: (e) => errors.push(e) });
    await until(() => errors.length > 0);
    expect(errors).toEqual([new Error('gone')]);
  });
});

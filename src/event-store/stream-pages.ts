import type { EventStore } from './event-store';
import type { StoredEvent } from './event-store.types';

/**
 * Events per read when a whole stream is gone through (a fold, a subscription's catch-up): a page
 * is a short task even for large events.
 */
export const STREAM_PAGE_SIZE = 500;

/** Lets the event loop run what waits (HTTP, health checks, timers) before the next page is read. */
export function nextLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A stream's events from `fromVersion` on, a page at a time, the event loop free between two pages:
 * SQLite reads synchronously, so one read of a 100,000-event stream would hold the loop for a second.
 * Ends at the first short page (what was appended after it is the caller's next read).
 */
export async function* streamPages(
  store: Pick<EventStore, 'readStream'>,
  streamId: string,
  fromVersion = 1,
  pageSize = STREAM_PAGE_SIZE,
): AsyncGenerator<StoredEvent[]> {
  for (let next = fromVersion; ;) {
    const page = await store.readStream(streamId, { fromVersion: next, limit: pageSize });
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    next += page.length;
    await nextLoopTurn();
  }
}

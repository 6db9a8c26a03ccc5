import { Observable } from 'rxjs';
import type { StoredEvent } from './event-store.types';

export interface CatchUpSource {
  /** The store's committed events, live: every event once, in global order. */
  live$: Observable<StoredEvent>;
  /** The next page of the log after `after`; synchronous (SQLite) or not (PostgreSQL). */
  readPage: (after: number) => StoredEvent[] | Promise<StoredEvent[]>;
  pageSize: number;
  /** The position the subscriber counts in: global, or the stream's own. */
  positionOf: (event: StoredEvent) => number;
  /** Which live events belong to this subscription. */
  matches: (event: StoredEvent) => boolean;
}

/**
 * Both stores' `subscribe` and `subscribeToStream`: the live events are buffered from the start, the
 * log is read page by page after `after`, and once a page comes back short the buffer is delivered,
 * skipping what the replay already gave. Listening before the first read leaves no gap; comparing
 * positions leaves no duplicate. A synchronous source delivers its first page within `subscribe()`.
 */
export function catchUpThenLive(source: CatchUpSource, after: number): Observable<StoredEvent> {
  const { live$, readPage, pageSize, positionOf, matches } = source;
  return new Observable<StoredEvent>((subscriber) => {
    let last = after;
    let catchingUp = true;
    const buffered: StoredEvent[] = [];
    const deliver = (event: StoredEvent) => {
      if (positionOf(event) <= last) return;
      last = positionOf(event);
      subscriber.next(event);
    };
    const live = live$.subscribe({
      next: (event) => {
        if (!matches(event)) return;
        if (catchingUp) buffered.push(event);
        else deliver(event);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    const onPage = (page: StoredEvent[]) => {
      if (subscriber.closed) return;
      page.forEach(deliver);
      if (page.length === pageSize) {
        setImmediate(catchUpPage); // yield between pages so a long replay does not starve the loop
        return;
      }
      catchingUp = false;
      buffered.splice(0).forEach(deliver);
    };
    const catchUpPage = () => {
      if (subscriber.closed) return;
      try {
        const page = readPage(last);
        if (Array.isArray(page)) onPage(page);
        else page.then(onPage, (error: unknown) => subscriber.error(error));
      } catch (error) {
        subscriber.error(error);
      }
    };
    catchUpPage();
    return () => live.unsubscribe();
  });
}

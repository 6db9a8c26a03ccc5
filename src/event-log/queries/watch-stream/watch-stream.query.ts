import { Query } from '@nestjs/cqrs';
import type { Observable } from 'rxjs';
import type { StoredEvent } from '../../../event-store';

/**
 * A stream's events after a stream position, replayed from the log and then live, each exactly once
 * and with no gap between the two parts (EventStore.subscribeToStream). Unsubscribe to stop.
 */
export class WatchStream extends Query<Observable<StoredEvent>> {
  constructor(
    readonly streamId: string,
    readonly afterStreamPosition: number,
  ) {
    super();
  }
}

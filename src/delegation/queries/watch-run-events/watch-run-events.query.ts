import { Query } from '@nestjs/cqrs';
import type { Observable } from 'rxjs';
import type { StoredEvent } from '../../../event-store';

/**
 * A run's events (its `run-<id>` stream and its thread's `session-sub-agent-<id>` stream), and with
 * `includeDescendants` those of every run below it, including runs started while watching: replayed
 * from a global position, then live, each once and in log order.
 */
export class WatchRunEvents extends Query<Observable<StoredEvent>> {
  constructor(
    readonly runId: string,
    readonly includeDescendants: boolean,
    /** Global position to replay after; unset: from the run's first event. */
    readonly after?: number,
  ) {
    super();
  }
}

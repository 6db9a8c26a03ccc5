import { Query } from '@nestjs/cqrs';
import type { StoredEvent } from '../../../event-store';

export interface EventPage {
  events: StoredEvent[];
  /** Pass as `after` to get the next page; equals the request's `after` when there is nothing new. */
  nextAfter: number;
}

/** The raw log in global order, from after a position. */
export class ListEvents extends Query<EventPage> {
  constructor(
    readonly after: number,
    readonly limit: number,
    readonly streamId?: string,
  ) {
    super();
  }
}

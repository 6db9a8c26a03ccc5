import { Query } from '@nestjs/cqrs';
import type { StoredEvent } from '../../../event-store/event-store.types';

export interface StreamsEventsRequest {
  /** The events of these streams together, in global order. */
  streamIds: readonly string[];
  /** Global position to start after. */
  after: number;
  limit: number;
}

/** Several event reads in one statement (GraphQL loaders); one array per request, in request order. */
export class ListStreamsEvents extends Query<StoredEvent[][]> {
  constructor(readonly requests: readonly StreamsEventsRequest[]) {
    super();
  }
}

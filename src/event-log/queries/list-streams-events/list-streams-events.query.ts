import { Query } from '@nestjs/cqrs';
import type { StoredEvent, StreamsRead } from '../../../event-store';

/**
 * Several event reads in one statement (GraphQL loaders): per request, the events of its streams
 * together after a global position, in global order; one array per request, in request order.
 */
export class ListStreamsEvents extends Query<StoredEvent[][]> {
  constructor(readonly requests: readonly StreamsRead[]) {
    super();
  }
}

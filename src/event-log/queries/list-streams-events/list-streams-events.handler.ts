import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventStore, type StoredEvent } from '../../../event-store';
import { ListStreamsEvents } from './list-streams-events.query';

/** The log is read through the store's port: one batched read, whichever database holds it. */
@QueryHandler(ListStreamsEvents)
export class ListStreamsEventsHandler implements IQueryHandler<ListStreamsEvents, StoredEvent[][]> {
  constructor(private readonly store: EventStore) {}

  execute({ requests }: ListStreamsEvents): Promise<StoredEvent[][]> {
    return this.store.readStreams(requests);
  }
}

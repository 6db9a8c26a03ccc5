import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../event-store';
import { EventPage, ListEvents } from './list-events.query';

@QueryHandler(ListEvents)
export class ListEventsHandler implements IQueryHandler<ListEvents, EventPage> {
  constructor(private readonly store: EventStore) {}

  async execute({ after, limit, streamId }: ListEvents): Promise<EventPage> {
    const events = streamId ? await this.store.readStream(streamId, { fromVersion: after + 1, limit }) : await this.store.readAll({ after, limit });
    const last = events[events.length - 1];
    const nextAfter = last ? (streamId ? last.streamPosition : last.globalPosition) : after;
    return { events, nextAfter };
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../event-store';
import { ListEventsBefore, StreamPageBefore } from './list-events-before.query';

@QueryHandler(ListEventsBefore)
export class ListEventsBeforeHandler implements IQueryHandler<ListEventsBefore, StreamPageBefore> {
  constructor(private readonly store: EventStore) {}

  async execute({ streamId, last, before }: ListEventsBefore): Promise<StreamPageBefore> {
    const version = await this.store.streamVersion(streamId);
    // Stream positions run 1..version without holes: the page is a range, read forwards.
    const end = Math.min(before === undefined ? version : before - 1, version);
    const from = Math.max(1, end - last + 1);
    const events = end >= from ? await this.store.readStream(streamId, { fromVersion: from, limit: end - from + 1 }) : [];
    return { events, hasEarlier: from > 1 && end >= 1, version };
  }
}

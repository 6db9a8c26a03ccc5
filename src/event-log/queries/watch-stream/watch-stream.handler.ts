import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Observable } from 'rxjs';
import { EventStore } from '../../../event-store/event-store';
import type { StoredEvent } from '../../../event-store/event-store.types';
import { WatchStream } from './watch-stream.query';

@QueryHandler(WatchStream)
export class WatchStreamHandler implements IQueryHandler<WatchStream, Observable<StoredEvent>> {
  constructor(private readonly store: EventStore) {}

  async execute({ streamId, afterStreamPosition }: WatchStream): Promise<Observable<StoredEvent>> {
    return this.store.subscribeToStream(streamId, afterStreamPosition);
  }
}

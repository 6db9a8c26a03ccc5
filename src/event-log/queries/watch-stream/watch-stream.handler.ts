import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Observable } from 'rxjs';
import { EventStore, type StoredEvent } from '../../../event-store';
import { WatchStream } from './watch-stream.query';

@QueryHandler(WatchStream)
export class WatchStreamHandler implements IQueryHandler<WatchStream, Observable<StoredEvent>> {
  constructor(private readonly store: EventStore) {}

  async execute({ streamId, afterStreamPosition }: WatchStream): Promise<Observable<StoredEvent>> {
    return this.store.subscribeToStream(streamId, afterStreamPosition);
  }
}

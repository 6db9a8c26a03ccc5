import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { UnionAllBatch } from '../../../database/union-all-batch';
import { type EventRow, toStoredEvent } from '../../../event-store/event-store';
import type { StoredEvent } from '../../../event-store/event-store.types';
import { ListStreamsEvents, StreamsEventsRequest } from './list-streams-events.query';

@QueryHandler(ListStreamsEvents)
export class ListStreamsEventsHandler implements IQueryHandler<ListStreamsEvents, StoredEvent[][]> {
  private readonly batch: UnionAllBatch<StreamsEventsRequest>;

  constructor(database: SqliteDatabase) {
    this.batch = new UnionAllBatch(
      database.connection,
      `SELECT ? AS k, * FROM events WHERE stream_id IN (SELECT value FROM json_each(?)) AND global_position > ?
       ORDER BY global_position LIMIT ?`,
      (request) => [JSON.stringify(request.streamIds), request.after, request.limit],
    );
  }

  async execute({ requests }: ListStreamsEvents): Promise<StoredEvent[][]> {
    return this.batch
      .run(requests)
      .map((rows) => (rows as unknown as EventRow[]).map(toStoredEvent).sort((a, b) => a.globalPosition - b.globalPosition));
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { byLimit, KeyedBatch } from '../../../database/keyed-batch';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { type EventRow, toStoredEvent } from '../../../event-store/sqlite/sqlite-event-store';
import type { StoredEvent } from '../../../event-store/event-store.types';
import { ListStreamsEvents, StreamsEventsRequest } from './list-streams-events.query';

@QueryHandler(ListStreamsEvents)
export class ListStreamsEventsHandler implements IQueryHandler<ListStreamsEvents, StoredEvent[][]> {
  private readonly batch: KeyedBatch<StreamsEventsRequest, EventRow>;

  constructor(database: SqliteDatabase) {
    this.batch = new KeyedBatch(
      database.connection,
      `SELECT q.key AS k, e.* FROM json_each(?) AS q, events AS e
       WHERE e.global_position IN (SELECT x.global_position FROM events AS x
                                   WHERE x.stream_id IN (SELECT value FROM json_each(q.value ->> '$.streams'))
                                     AND x.global_position > q.value ->> '$.after'
                                   ORDER BY x.global_position LIMIT ?)`,
      (request) => ({ streams: JSON.stringify(request.streamIds), after: request.after }),
    );
  }

  async execute({ requests }: ListStreamsEvents): Promise<StoredEvent[][]> {
    const results: StoredEvent[][] = requests.map(() => []);
    for (const { limit, indexes } of byLimit(requests, (r) => r.limit)) {
      const grouped = this.batch.run(
        indexes.map((i) => requests[i]),
        limit,
      );
      indexes.forEach((index, j) => {
        results[index] = grouped[j].map(toStoredEvent).sort((a, b) => a.globalPosition - b.globalPosition);
      });
    }
    return results;
  }
}

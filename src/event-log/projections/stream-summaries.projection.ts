import { sql } from 'drizzle-orm';
import { streamSummaries } from '../../database/schema';
import { type Orm, preparedPerConnection } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type Projection, ReadModelProjection } from '../../event-store/projection';
import { streamCategory } from '../../event-store/stream-ids';

/** Inline: one row per stream with its event count and latest event, always in step with the log. */
@ReadModelProjection()
export class StreamSummariesProjection implements Projection {
  readonly name = 'stream-summaries';
  readonly mode = 'inline';
  readonly tables = [streamSummaries];

  apply(event: StoredEvent, orm: Orm): void {
    upsertFor(orm).run({
      streamId: event.streamId,
      category: streamCategory(event.streamId),
      type: event.type,
      globalPosition: event.globalPosition,
      recordedAt: event.recordedAt,
    });
  }
}

/** Runs for every event inside the append transaction; `excluded.*` are the row about to be inserted. */
const upsertFor = preparedPerConnection((orm: Orm) => {
  const excluded = (column: { name: string }) => sql`excluded.${sql.identifier(column.name)}`;
  return orm
    .insert(streamSummaries)
    .values({
      streamId: sql.placeholder('streamId'),
      category: sql.placeholder('category'),
      eventCount: 1,
      lastEventType: sql.placeholder('type'),
      lastGlobalPosition: sql.placeholder('globalPosition'),
      firstRecordedAt: sql.placeholder('recordedAt'),
      lastRecordedAt: sql.placeholder('recordedAt'),
    })
    .onConflictDoUpdate({
      target: streamSummaries.streamId,
      set: {
        eventCount: sql`${streamSummaries.eventCount} + 1`,
        lastEventType: excluded(streamSummaries.lastEventType),
        lastGlobalPosition: excluded(streamSummaries.lastGlobalPosition),
        lastRecordedAt: excluded(streamSummaries.lastRecordedAt),
      },
    })
    .prepare();
});

import { sql } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database';
import { type StoredEvent, streamCategory } from '../../event-store';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, runPrepared } from '../../projections';
import { streamSummariesOnPostgres } from './stream-summaries.pg-projection';

/** Inline: one row per stream with its event count and latest event, always in step with the log. */
@ReadModelProjection()
export class StreamSummariesProjection extends PerEventProjection {
  readonly name = 'stream-summaries';
  readonly mode = 'inline';
  readonly tables = ['streamSummaries'] as const;
  readonly setBased = { postgres: streamSummariesOnPostgres };

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    yield* runPrepared(db, 'stream_summaries_upsert', upsertSummary, {
      streamId: event.streamId,
      category: streamCategory(event.streamId),
      type: event.type,
      globalPosition: event.globalPosition,
      recordedAt: event.recordedAt,
    });
  }
}

/** The summary upsert with placeholders: built once per connection (it runs for every event). */
function upsertSummary(db: ReadModelDatabase) {
  const { streamSummaries } = db.tables;
  // `excluded.*` is the row about to be inserted (the same on both databases).
  const excluded = (column: { name: string }) => sql`excluded.${sql.identifier(column.name)}`;
  return db.orm
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
    });
}

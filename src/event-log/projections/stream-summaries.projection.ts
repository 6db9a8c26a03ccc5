import { sql } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database/read-model-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type Projection, type ProjectionWork, ReadModelProjection, run } from '../../event-store/projection';
import { streamCategory } from '../../event-store/stream-ids';

/** Inline: one row per stream with its event count and latest event, always in step with the log. */
@ReadModelProjection()
export class StreamSummariesProjection implements Projection {
  readonly name = 'stream-summaries';
  readonly mode = 'inline';
  readonly tables = ['streamSummaries'] as const;

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    const { streamSummaries } = db.tables;
    // `excluded.*` is the row about to be inserted (the same on both databases).
    const excluded = (column: { name: string }) => sql`excluded.${sql.identifier(column.name)}`;
    yield* run(
      db.orm
        .insert(streamSummaries)
        .values({
          streamId: event.streamId,
          category: streamCategory(event.streamId),
          eventCount: 1,
          lastEventType: event.type,
          lastGlobalPosition: event.globalPosition,
          firstRecordedAt: event.recordedAt,
          lastRecordedAt: event.recordedAt,
        })
        .onConflictDoUpdate({
          target: streamSummaries.streamId,
          set: {
            eventCount: sql`${streamSummaries.eventCount} + 1`,
            lastEventType: excluded(streamSummaries.lastEventType),
            lastGlobalPosition: excluded(streamSummaries.lastGlobalPosition),
            lastRecordedAt: excluded(streamSummaries.lastRecordedAt),
          },
        }),
    );
  }
}

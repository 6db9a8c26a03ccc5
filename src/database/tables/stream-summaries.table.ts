import { column, table } from '../table-description';

/**
 * Read model (projection `stream-summaries`, inline; inline or async on PostgreSQL): one row per stream,
 * for listing and admin views. `event_count` counts applications, so an event applied twice shows as a
 * count above the stream's version.
 */
export const streamSummaries = table(
  'stream_summaries',
  {
    streamId: column.text().primaryKey(),
    category: column.text().notNull(),
    eventCount: column.integer().notNull(),
    lastEventType: column.text().notNull(),
    lastGlobalPosition: column.bigint().notNull(),
    firstRecordedAt: column.timestamptz().notNull(),
    lastRecordedAt: column.timestamptz().notNull(),
  },
  { indexes: { stream_summaries_category_idx: ['category', 'streamId'] } },
);

import { column, table } from '../table-description';

/**
 * Read model (projection `stream-summaries`, inline; inline or async on PostgreSQL): one row per stream,
 * for listing and admin views. `event_count` counts applications, so an event applied twice shows as a
 * count above the stream's version.
 */
export const streamSummaries = table(
  'stream_summaries',
  {
    streamId: column.text('stream_id').primaryKey(),
    category: column.text('category').notNull(),
    eventCount: column.integer('event_count').notNull(),
    lastEventType: column.text('last_event_type').notNull(),
    lastGlobalPosition: column.bigint('last_global_position').notNull(),
    firstRecordedAt: column.timestamptz('first_recorded_at').notNull(),
    lastRecordedAt: column.timestamptz('last_recorded_at').notNull(),
  },
  { indexes: { stream_summaries_category_idx: ['category', 'streamId'] } },
);

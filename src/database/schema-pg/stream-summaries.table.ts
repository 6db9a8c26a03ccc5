import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Read model (projection `stream-summaries`, inline or async on PostgreSQL): one row per stream, the
 * twin of ../schema/stream-summaries.table.ts. `event_count` counts applications, so an event applied
 * twice shows as a count above the stream's version.
 */
export const streamSummaries = pgTable(
  'stream_summaries',
  {
    streamId: text('stream_id').primaryKey(),
    category: text('category').notNull(),
    eventCount: integer('event_count').notNull(),
    lastEventType: text('last_event_type').notNull(),
    lastGlobalPosition: bigint('last_global_position', { mode: 'number' }).notNull(),
    firstRecordedAt: timestamp('first_recorded_at', { withTimezone: true, mode: 'string' }).notNull(),
    lastRecordedAt: timestamp('last_recorded_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [index('stream_summaries_category_idx').on(t.category, t.streamId)],
);

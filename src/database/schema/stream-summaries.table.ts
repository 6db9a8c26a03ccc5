import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Read model (inline projection `stream-summaries`): one row per stream, for listing and admin views. */
export const streamSummaries = sqliteTable(
  'stream_summaries',
  {
    streamId: text('stream_id').primaryKey(),
    category: text('category').notNull(),
    eventCount: integer('event_count').notNull(),
    lastEventType: text('last_event_type').notNull(),
    lastGlobalPosition: integer('last_global_position').notNull(),
    firstRecordedAt: text('first_recorded_at').notNull(),
    lastRecordedAt: text('last_recorded_at').notNull(),
  },
  (t) => [index('stream_summaries_category_idx').on(t.category, t.streamId)],
);

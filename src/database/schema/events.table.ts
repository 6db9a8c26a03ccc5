import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** One row per stream: its current version (= number of events), used for optimistic concurrency. */
export const streams = sqliteTable('streams', {
  streamId: text('stream_id').primaryKey(),
  version: integer('version').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/**
 * The log. `global_position` is the rowid alias, so it is assigned in commit order by the
 * single writer; rows are never updated or deleted.
 */
export const events = sqliteTable(
  'events',
  {
    globalPosition: integer('global_position').primaryKey(),
    eventId: text('event_id').notNull(),
    streamId: text('stream_id').notNull(),
    streamPosition: integer('stream_position').notNull(),
    type: text('type').notNull(),
    data: text('data').notNull(),
    metadata: text('metadata').notNull(),
    recordedAt: text('recorded_at').notNull(),
  },
  (t) => [
    uniqueIndex('events_stream_position_uq').on(t.streamId, t.streamPosition),
    uniqueIndex('events_event_id_uq').on(t.eventId),
    // No index on type: every index is written on every append, and readers go by stream or position.
  ],
);

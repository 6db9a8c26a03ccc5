import { bigint, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** One row per stream: its current version (= number of events), used for optimistic concurrency. */
export const streams = pgTable('streams', {
  streamId: text('stream_id').primaryKey(),
  version: integer('version').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull(),
});

/**
 * The log. `global_position` comes from an identity sequence; the store takes an advisory lock per
 * appending transaction, so positions become visible in order and a reader never sees a hole
 * that fills in later (see PostgresEventStore). Rows are never updated or deleted.
 */
export const events = pgTable(
  'events',
  {
    globalPosition: bigint('global_position', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: text('event_id').notNull(),
    streamId: text('stream_id').notNull(),
    streamPosition: integer('stream_position').notNull(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    metadata: jsonb('metadata').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [uniqueIndex('events_stream_position_uq').on(t.streamId, t.streamPosition), uniqueIndex('events_event_id_uq').on(t.eventId)],
);

import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Read model (async projection `audit-log`): who did what, keyed by the event's global position. */
export const auditLog = sqliteTable(
  'audit_log',
  {
    globalPosition: integer('global_position').primaryKey(),
    streamId: text('stream_id').notNull(),
    eventType: text('event_type').notNull(),
    actor: text('actor'),
    correlationId: text('correlation_id'),
    causationId: text('causation_id'),
    recordedAt: text('recorded_at').notNull(),
  },
  (t) => [
    index('audit_log_stream_idx').on(t.streamId, t.globalPosition),
    index('audit_log_correlation_idx').on(t.correlationId),
  ],
);

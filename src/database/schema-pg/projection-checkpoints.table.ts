import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Async projections remember the last global position they applied, so they resume after a restart. */
export const projectionCheckpoints = pgTable('projection_checkpoints', {
  projectionName: text('projection_name').primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull(),
});

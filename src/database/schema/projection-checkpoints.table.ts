import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Async projections remember the last global position they applied, so they resume after a restart. */
export const projectionCheckpoints = sqliteTable('projection_checkpoints', {
  projectionName: text('projection_name').primaryKey(),
  position: integer('position').notNull(),
  updatedAt: text('updated_at').notNull(),
});

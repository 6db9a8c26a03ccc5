import { column, table } from '../table-description';

/** Async projections remember the last global position they applied, so they resume after a restart. */
export const projectionCheckpoints = table('projection_checkpoints', {
  projectionName: column.text('projection_name').primaryKey(),
  position: column.bigint('position').notNull(),
  updatedAt: column.timestamptz('updated_at').notNull(),
});

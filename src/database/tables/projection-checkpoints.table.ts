import { column, table } from '../table-description';

/** Async projections remember the last global position they applied, so they resume after a restart. */
export const projectionCheckpoints = table('projection_checkpoints', {
  projectionName: column.text().primaryKey(),
  position: column.bigint().notNull(),
  updatedAt: column.timestamptz().notNull(),
});

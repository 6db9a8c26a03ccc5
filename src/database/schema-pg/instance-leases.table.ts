import { integer, pgTable, text } from 'drizzle-orm/pg-core';

/** Operational state (instance leases): the twin of ../schema/instance-leases.table.ts. */
export const instanceLeases = pgTable('instance_leases', {
  instanceId: text('instance_id').primaryKey(),
  address: text('address').notNull(),
  pid: integer('pid').notNull(),
  hostname: text('hostname').notNull(),
  startedAt: text('started_at').notNull(),
  heartbeatAt: text('heartbeat_at').notNull(),
  expiresAt: text('expires_at').notNull(),
});

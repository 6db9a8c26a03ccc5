import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Operational state, not a read model: one row per running Switchboard instance, written by its
 * `InstanceLease` (heartbeat moves `expires_at`) and deleted by whoever claims it once expired.
 * Timestamps are ISO 8601 text (`toISOString`, fixed width: they compare as text).
 */
export const instanceLeases = sqliteTable('instance_leases', {
  instanceId: text('instance_id').primaryKey(),
  /** The base URL clients reach this instance at (SWITCHBOARD_PUBLIC_URL, else http://<host>:<port>). */
  address: text('address').notNull(),
  pid: integer('pid').notNull(),
  hostname: text('hostname').notNull(),
  startedAt: text('started_at').notNull(),
  heartbeatAt: text('heartbeat_at').notNull(),
  expiresAt: text('expires_at').notNull(),
});

import { column, table } from '../table-description';

/**
 * Operational state, not a read model: one row per running Switchboard instance, written by its
 * `InstanceLease` (heartbeat moves `expires_at`) and deleted by whoever claims it once expired.
 * Timestamps are ISO 8601 text (`toISOString`, fixed width: they compare as text).
 */
export const instanceLeases = table('instance_leases', {
  instanceId: column.text().primaryKey(),
  /** The base URL clients reach this instance at (SWITCHBOARD_PUBLIC_URL, else http://<host>:<port>). */
  address: column.text().notNull(),
  pid: column.integer().notNull(),
  hostname: column.text().notNull(),
  startedAt: column.text().notNull(),
  heartbeatAt: column.text().notNull(),
  expiresAt: column.text().notNull(),
});

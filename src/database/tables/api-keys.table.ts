import { column, table } from '../table-description';

/**
 * Read model (issue 27): one row per named API key, from its `api_key-<id>` stream; the secret only as
 * its SHA-256. `last_used_at` is operational (written by the guard at most once a minute per key, not
 * from events): a rebuild leaves it empty.
 */
export const apiKeys = table(
  'api_keys',
  {
    keyId: column.text('key_id').primaryKey(),
    name: column.text('name').notNull(),
    role: column.text('role').notNull(),
    prefix: column.text('prefix').notNull(),
    secretSha256: column.text('secret_sha256').notNull().unique(),
    expiresAt: column.text('expires_at'),
    createdBy: column.text('created_by').notNull(),
    createdAt: column.text('created_at').notNull(),
    revokedAt: column.text('revoked_at'),
    revokedBy: column.text('revoked_by'),
    lastUsedAt: column.text('last_used_at'),
  },
  { indexes: { api_keys_created_idx: ['createdAt'] } },
);

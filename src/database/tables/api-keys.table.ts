import { column, table } from '../table-description';

/**
 * Read model (issue 27): one row per named API key, from its `api_key-<id>` stream; the secret only as
 * its SHA-256. `last_used_at` is operational (written by the guard at most once a minute per key, not
 * from events): a rebuild leaves it empty.
 */
export const apiKeys = table(
  'api_keys',
  {
    keyId: column.text().primaryKey(),
    name: column.text().notNull(),
    role: column.text().notNull(),
    prefix: column.text().notNull(),
    secretSha256: column.text().notNull().unique(),
    expiresAt: column.text(),
    createdBy: column.text().notNull(),
    createdAt: column.text().notNull(),
    revokedAt: column.text(),
    revokedBy: column.text(),
    lastUsedAt: column.text(),
  },
  { indexes: { api_keys_created_idx: ['createdAt'] } },
);

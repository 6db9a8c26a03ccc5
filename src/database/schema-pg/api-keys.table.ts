import { index, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * The twin of ../schema/api-keys.table.ts.
 * Read model (issue 27): one row per named API key, from its `api_key-<id>` stream; the secret only as
 * its SHA-256. `last_used_at` is operational (written by the guard at most once a minute per key, not
 * from events): a rebuild leaves it empty.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    keyId: text('key_id').primaryKey(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    prefix: text('prefix').notNull(),
    secretSha256: text('secret_sha256').notNull().unique(),
    expiresAt: text('expires_at'),
    createdBy: text('created_by').notNull(),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
    revokedBy: text('revoked_by'),
    lastUsedAt: text('last_used_at'),
  },
  (t) => [index('api_keys_created_idx').on(t.createdAt)],
);

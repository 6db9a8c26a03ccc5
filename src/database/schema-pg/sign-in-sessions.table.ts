import { pgTable, text } from 'drizzle-orm/pg-core';

/** Operational state (sign-in sessions): the twin of ../schema/sign-in-sessions.table.ts. */
export const signInSessions = pgTable('sign_in_sessions', {
  idHash: text('id_hash').primaryKey(),
  subject: text('subject').notNull(),
  name: text('name').notNull(),
  role: text('role').notNull(),
  createdAt: text('created_at').notNull(),
  expiresAt: text('expires_at').notNull(),
  revokedAt: text('revoked_at'),
});

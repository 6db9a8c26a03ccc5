import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Read model (inline projection `sessions`): one row per session with its status and configuration. */
export const sessions = sqliteTable(
  'sessions',
  {
    sessionId: text('session_id').primaryKey(),
    status: text('status').notNull(),
    model: text('model').notNull(),
    config: text('config').notNull(),
    protocolVersion: integer('protocol_version').notNull(),
    statusReason: text('status_reason'),
    lastPosition: integer('last_position').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    /** The instance that last took the session live (create, start, resume: `metadata.instanceId`); null before leases. */
    ownerInstance: text('owner_instance'),
    /** What the CLI named it (`session.title_changed`), else its first message, shortened; null before any. */
    title: text('title'),
    /** Its last message (the user's or the main agent's), shortened to one line. */
    preview: text('preview'),
  },
  (t) => [index('sessions_status_idx').on(t.status), index('sessions_owner_instance_idx').on(t.ownerInstance)],
);

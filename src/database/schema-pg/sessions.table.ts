import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/** Read model (inline projection `sessions`): one row per session, the twin of ../schema/sessions.table.ts. */
export const sessions = pgTable(
  'sessions',
  {
    sessionId: text('session_id').primaryKey(),
    status: text('status').notNull(),
    model: text('model').notNull(),
    config: text('config').notNull(),
    protocolVersion: integer('protocol_version').notNull(),
    statusReason: text('status_reason'),
    /** A global position: bigint. */
    lastPosition: bigint('last_position', { mode: 'number' }).notNull(),
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

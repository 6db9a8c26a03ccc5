import { column, table } from '../table-description';

/** Read model (inline projection `sessions`): one row per session with its status and configuration. */
export const sessions = table(
  'sessions',
  {
    sessionId: column.text('session_id').primaryKey(),
    status: column.text('status').notNull(),
    model: column.text('model').notNull(),
    config: column.text('config').notNull(),
    protocolVersion: column.integer('protocol_version').notNull(),
    statusReason: column.text('status_reason'),
    lastPosition: column.bigint('last_position').notNull(),
    createdAt: column.text('created_at').notNull(),
    updatedAt: column.text('updated_at').notNull(),
    /** The instance that last took the session live (create, start, resume: `metadata.instanceId`); null before leases. */
    ownerInstance: column.text('owner_instance'),
    /** What the CLI named it (`session.title_changed`), else its first message, shortened; null before any. */
    title: column.text('title'),
    /** Its last message (the user's or the main agent's), shortened to one line. */
    preview: column.text('preview'),
  },
  { indexes: { sessions_status_idx: ['status'], sessions_owner_instance_idx: ['ownerInstance'] } },
);

import { column, table } from '../table-description';

/** Read model (inline projection `sessions`): one row per session with its status and configuration. */
export const sessions = table(
  'sessions',
  {
    sessionId: column.text().primaryKey(),
    status: column.text().notNull(),
    model: column.text().notNull(),
    config: column.text().notNull(),
    protocolVersion: column.integer().notNull(),
    statusReason: column.text(),
    lastPosition: column.bigint().notNull(),
    createdAt: column.text().notNull(),
    updatedAt: column.text().notNull(),
    /** The instance that last took the session live (create, start, resume: `metadata.instanceId`); null before leases. */
    ownerInstance: column.text(),
    /** What the CLI named it (`session.title_changed`), else its first message, shortened; null before any. */
    title: column.text(),
    /** Its last message (the user's or the main agent's), shortened to one line. */
    preview: column.text(),
  },
  { indexes: { sessions_status_idx: ['status'], sessions_owner_instance_idx: ['ownerInstance'] } },
);

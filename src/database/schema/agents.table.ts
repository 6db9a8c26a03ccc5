import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Read model (inline projection `agents`): the agent library, one row per live agent. */
export const agents = sqliteTable('agents', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** The agent's fields as JSON (spec's agent JSON without id and timestamps). */
  fields: text('fields').notNull(),
  version: integer('version').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

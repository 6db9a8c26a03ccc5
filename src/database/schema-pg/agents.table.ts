import { integer, pgTable, text } from 'drizzle-orm/pg-core';

/** Read model (inline projection `agents`): the agent library, the twin of ../schema/agents.table.ts. */
export const agents = pgTable('agents', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** The agent's fields as JSON (spec's agent JSON without id and timestamps). */
  fields: text('fields').notNull(),
  version: integer('version').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

import { column, table } from '../table-description';

/** Read model (inline projection `agents`): the agent library, one row per live agent. */
export const agents = table('agents', {
  id: column.text('id').primaryKey(),
  name: column.text('name').notNull(),
  /** The agent's fields as JSON (spec's agent JSON without id and timestamps). */
  fields: column.text('fields').notNull(),
  version: column.integer('version').notNull(),
  createdAt: column.text('created_at').notNull(),
  updatedAt: column.text('updated_at').notNull(),
});

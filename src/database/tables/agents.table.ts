import { column, table } from '../table-description';

/** Read model (inline projection `agents`): the agent library, one row per live agent. */
export const agents = table('agents', {
  id: column.text().primaryKey(),
  name: column.text().notNull(),
  /** The agent's fields as JSON (spec's agent JSON without id and timestamps). */
  fields: column.text().notNull(),
  version: column.integer().notNull(),
  createdAt: column.text().notNull(),
  updatedAt: column.text().notNull(),
});

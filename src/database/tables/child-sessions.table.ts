import { column, table } from '../table-description';

/** Read model: every id a sub-agent is known by -> its parent session and agent (childToParent + childToAgent). */
export const childSessions = table(
  'child_sessions',
  {
    childSessionId: column.text().primaryKey(),
    parentSessionId: column.text().notNull(),
    agentName: column.text().notNull(),
    /** remoteSessionId (protocol 2), agentId or ownerNativeSessionId (protocol 3). */
    via: column.text().notNull(),
    mappedAt: column.text().notNull(),
  },
  { indexes: { child_sessions_parent_idx: ['parentSessionId'] } },
);

/** Read model: each sub-agent launch (subagentInstances), kept after it ends for lineage. */
export const subagentInstances = table(
  'subagent_instances',
  {
    parentSessionId: column.text().notNull(),
    toolCallId: column.text().notNull(),
    agentName: column.text().notNull(),
    childSessionId: column.text().notNull(),
    status: column.text().notNull(),
    error: column.text(),
    startedAt: column.text().notNull(),
    endedAt: column.text(),
    totalTokens: column.bigint(),
    totalToolCalls: column.bigint(),
    durationMs: column.bigint(),
  },
  { primaryKey: ['parentSessionId', 'toolCallId'] },
);

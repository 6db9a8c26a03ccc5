import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Read model: every id a sub-agent is known by -> its parent session and agent (childToParent + childToAgent). */
export const childSessions = sqliteTable(
  'child_sessions',
  {
    childSessionId: text('child_session_id').primaryKey(),
    parentSessionId: text('parent_session_id').notNull(),
    agentName: text('agent_name').notNull(),
    /** remoteSessionId (protocol 2), agentId or ownerNativeSessionId (protocol 3). */
    via: text('via').notNull(),
    mappedAt: text('mapped_at').notNull(),
  },
  (t) => [index('child_sessions_parent_idx').on(t.parentSessionId)],
);

/** Read model: each sub-agent launch (subagentInstances), kept after it ends for lineage. */
export const subagentInstances = sqliteTable(
  'subagent_instances',
  {
    parentSessionId: text('parent_session_id').notNull(),
    toolCallId: text('tool_call_id').notNull(),
    agentName: text('agent_name').notNull(),
    childSessionId: text('child_session_id').notNull(),
    status: text('status').notNull(),
    error: text('error'),
    startedAt: text('started_at').notNull(),
    endedAt: text('ended_at'),
    totalTokens: integer('total_tokens'),
    totalToolCalls: integer('total_tool_calls'),
    durationMs: integer('duration_ms'),
  },
  (t) => [primaryKey({ columns: [t.parentSessionId, t.toolCallId] })],
);

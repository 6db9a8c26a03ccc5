import { bigint, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** Read model: every id a sub-agent is known by -> its parent session and agent, the twin of ../schema/child-sessions.table.ts. */
export const childSessions = pgTable(
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

/** Read model: each sub-agent launch, the twin of ../schema/child-sessions.table.ts. Tokens, tool calls and ms can pass 2^31: bigint. */
export const subagentInstances = pgTable(
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
    totalTokens: bigint('total_tokens', { mode: 'number' }),
    totalToolCalls: bigint('total_tool_calls', { mode: 'number' }),
    durationMs: bigint('duration_ms', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.parentSessionId, t.toolCallId] })],
);

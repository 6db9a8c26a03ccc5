import { column, table } from '../table-description';

/** Read model: every id a sub-agent is known by -> its parent session and agent (childToParent + childToAgent). */
export const childSessions = table(
  'child_sessions',
  {
    childSessionId: column.text('child_session_id').primaryKey(),
    parentSessionId: column.text('parent_session_id').notNull(),
    agentName: column.text('agent_name').notNull(),
    /** remoteSessionId (protocol 2), agentId or ownerNativeSessionId (protocol 3). */
    via: column.text('via').notNull(),
    mappedAt: column.text('mapped_at').notNull(),
  },
  { indexes: { child_sessions_parent_idx: ['parentSessionId'] } },
);

/** Read model: each sub-agent launch (subagentInstances), kept after it ends for lineage. */
export const subagentInstances = table(
  'subagent_instances',
  {
    parentSessionId: column.text('parent_session_id').notNull(),
    toolCallId: column.text('tool_call_id').notNull(),
    agentName: column.text('agent_name').notNull(),
    childSessionId: column.text('child_session_id').notNull(),
    status: column.text('status').notNull(),
    error: column.text('error'),
    startedAt: column.text('started_at').notNull(),
    endedAt: column.text('ended_at'),
    totalTokens: column.bigint('total_tokens'),
    totalToolCalls: column.bigint('total_tool_calls'),
    durationMs: column.bigint('duration_ms'),
  },
  { primaryKey: ['parentSessionId', 'toolCallId'] },
);

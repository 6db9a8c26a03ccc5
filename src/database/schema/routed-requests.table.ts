import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Read model (audit): every request routed for a session or one of its sub-agents: tool calls,
 * permission decisions, hooks and user input, with who asked, what, the answer and how long it took.
 */
export const routedRequests = sqliteTable(
  'routed_requests',
  {
    globalPosition: integer('global_position').primaryKey(),
    parentSessionId: text('parent_session_id').notNull(),
    childSessionId: text('child_session_id'),
    agentName: text('agent_name'),
    kind: text('kind').notNull(),
    toolName: text('tool_name'),
    arguments: text('arguments'),
    result: text('result'),
    outcome: text('outcome').notNull(),
    reason: text('reason'),
    latencyMs: integer('latency_ms'),
    recordedAt: text('recorded_at').notNull(),
  },
  (t) => [index('routed_requests_session_idx').on(t.parentSessionId, t.globalPosition), index('routed_requests_child_idx').on(t.childSessionId)],
);

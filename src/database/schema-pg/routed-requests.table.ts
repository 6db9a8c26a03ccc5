import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Read model (audit): every request routed for a session or one of its sub-agents, the twin of
 * ../schema/routed-requests.table.ts. Global position and latency are bigint.
 */
export const routedRequests = pgTable(
  'routed_requests',
  {
    globalPosition: bigint('global_position', { mode: 'number' }).primaryKey(),
    parentSessionId: text('parent_session_id').notNull(),
    childSessionId: text('child_session_id'),
    agentName: text('agent_name'),
    kind: text('kind').notNull(),
    toolName: text('tool_name'),
    arguments: text('arguments'),
    result: text('result'),
    outcome: text('outcome').notNull(),
    reason: text('reason'),
    latencyMs: bigint('latency_ms', { mode: 'number' }),
    recordedAt: text('recorded_at').notNull(),
  },
  (t) => [index('routed_requests_session_idx').on(t.parentSessionId, t.globalPosition), index('routed_requests_child_idx').on(t.childSessionId)],
);

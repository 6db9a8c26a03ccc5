import { column, table } from '../table-description';

/**
 * Read model (audit): every request routed for a session or one of its sub-agents: tool calls,
 * permission decisions, hooks and user input, with who asked, what, the answer and how long it took.
 */
export const routedRequests = table(
  'routed_requests',
  {
    globalPosition: column.bigint('global_position').primaryKey(),
    parentSessionId: column.text('parent_session_id').notNull(),
    childSessionId: column.text('child_session_id'),
    agentName: column.text('agent_name'),
    kind: column.text('kind').notNull(),
    toolName: column.text('tool_name'),
    arguments: column.text('arguments'),
    result: column.text('result'),
    outcome: column.text('outcome').notNull(),
    reason: column.text('reason'),
    latencyMs: column.bigint('latency_ms'),
    recordedAt: column.text('recorded_at').notNull(),
  },
  { indexes: { routed_requests_session_idx: ['parentSessionId', 'globalPosition'], routed_requests_child_idx: ['childSessionId'] } },
);

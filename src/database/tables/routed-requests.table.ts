import { column, table } from '../table-description';

/**
 * Read model (audit): every request routed for a session or one of its sub-agents: tool calls,
 * permission decisions, hooks and user input, with who asked, what, the answer and how long it took.
 */
export const routedRequests = table(
  'routed_requests',
  {
    globalPosition: column.bigint().primaryKey(),
    parentSessionId: column.text().notNull(),
    childSessionId: column.text(),
    agentName: column.text(),
    kind: column.text().notNull(),
    toolName: column.text(),
    arguments: column.text(),
    result: column.text(),
    outcome: column.text().notNull(),
    reason: column.text(),
    latencyMs: column.bigint(),
    recordedAt: column.text().notNull(),
  },
  { indexes: { routed_requests_session_idx: ['parentSessionId', 'globalPosition'], routed_requests_child_idx: ['childSessionId'] } },
);

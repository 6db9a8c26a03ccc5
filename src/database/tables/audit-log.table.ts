import { column, table } from '../table-description';

/**
 * Read model (async projection `audit-log`): who did what, keyed by the event's global position, with
 * what it concerns (session, run, agent, tool, decision) so audit queries filter on an index. The key is
 * the log's position, not a sequence of its own.
 */
export const auditLog = table(
  'audit_log',
  {
    globalPosition: column.bigint().primaryKey(),
    streamId: column.text().notNull(),
    eventType: column.text().notNull(),
    actor: column.text(),
    /** issue 27: who did it (`metadata.by`); an event without one (recorded before) is the `api` key. */
    actorKind: column.text().notNull().default('key'),
    actorId: column.text().notNull().default('api'),
    actorName: column.text().notNull().default('api'),
    correlationId: column.text(),
    causationId: column.text(),
    recordedAt: column.text().notNull(),
    sessionId: column.text(),
    runId: column.text(),
    agentId: column.text(),
    toolName: column.text(),
    decision: column.text(),
  },
  {
    indexes: {
      audit_log_stream_idx: ['streamId', 'globalPosition'],
      audit_log_correlation_idx: ['correlationId'],
      audit_log_session_idx: ['sessionId', 'globalPosition'],
      audit_log_run_idx: ['runId', 'globalPosition'],
      audit_log_agent_idx: ['agentId', 'globalPosition'],
      audit_log_tool_idx: ['toolName', 'globalPosition'],
      audit_log_recorded_idx: ['recordedAt'],
      audit_log_actor_idx: ['actorId', 'globalPosition'],
      audit_log_actor_kind_idx: ['actorKind', 'globalPosition'],
    },
  },
);

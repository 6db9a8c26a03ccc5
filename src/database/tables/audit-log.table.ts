import { column, table } from '../table-description';

/**
 * Read model (async projection `audit-log`): who did what, keyed by the event's global position, with
 * what it concerns (session, run, agent, tool, decision) so audit queries filter on an index. The key is
 * the log's position, not a sequence of its own.
 */
export const auditLog = table(
  'audit_log',
  {
    globalPosition: column.bigint('global_position').primaryKey(),
    streamId: column.text('stream_id').notNull(),
    eventType: column.text('event_type').notNull(),
    actor: column.text('actor'),
    /** issue 27: who did it (`metadata.by`); an event without one (recorded before) is the `api` key. */
    actorKind: column.text('actor_kind').notNull().default('key'),
    actorId: column.text('actor_id').notNull().default('api'),
    actorName: column.text('actor_name').notNull().default('api'),
    correlationId: column.text('correlation_id'),
    causationId: column.text('causation_id'),
    recordedAt: column.text('recorded_at').notNull(),
    sessionId: column.text('session_id'),
    runId: column.text('run_id'),
    agentId: column.text('agent_id'),
    toolName: column.text('tool_name'),
    decision: column.text('decision'),
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

import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Read model (async projection `audit-log`): who did what, keyed by the event's global position, the
 * twin of ../schema/audit-log.table.ts. The key is the log's position, not a sequence of its own.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    globalPosition: bigint('global_position', { mode: 'number' }).primaryKey(),
    streamId: text('stream_id').notNull(),
    eventType: text('event_type').notNull(),
    actor: text('actor'),
    /** issue 27: who did it (`metadata.by`); an event without one (recorded before) is the `api` key. */
    actorKind: text('actor_kind').notNull().default('key'),
    actorId: text('actor_id').notNull().default('api'),
    actorName: text('actor_name').notNull().default('api'),
    correlationId: text('correlation_id'),
    causationId: text('causation_id'),
    recordedAt: text('recorded_at').notNull(),
    sessionId: text('session_id'),
    runId: text('run_id'),
    agentId: text('agent_id'),
    toolName: text('tool_name'),
    decision: text('decision'),
  },
  (t) => [
    index('audit_log_stream_idx').on(t.streamId, t.globalPosition),
    index('audit_log_correlation_idx').on(t.correlationId),
    index('audit_log_session_idx').on(t.sessionId, t.globalPosition),
    index('audit_log_run_idx').on(t.runId, t.globalPosition),
    index('audit_log_agent_idx').on(t.agentId, t.globalPosition),
    index('audit_log_tool_idx').on(t.toolName, t.globalPosition),
    index('audit_log_recorded_idx').on(t.recordedAt),
    index('audit_log_actor_idx').on(t.actorId, t.globalPosition),
    index('audit_log_actor_kind_idx').on(t.actorKind, t.globalPosition),
  ],
);

import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Read model (async projection `audit-log`): who did what, keyed by the event's global position, with
 * what it concerns (session, run, agent, tool, decision) so audit queries filter on an index.
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    globalPosition: integer('global_position').primaryKey(),
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

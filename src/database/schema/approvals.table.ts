import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Read model (issue 14): every permission request that waited for a person, pending until decided or
 * expired. `asked_position` (the global position of `permission.asked`) orders the list and is the cursor.
 */
export const approvals = sqliteTable(
  'approvals',
  {
    approvalId: text('approval_id').primaryKey(),
    askedPosition: integer('asked_position').notNull(),
    status: text('status').notNull(),
    kind: text('kind').notNull(),
    toolName: text('tool_name'),
    /** JSON: the CLI's request as it came. */
    arguments: text('arguments'),
    sessionId: text('session_id').notNull(),
    childSessionId: text('child_session_id'),
    agentName: text('agent_name'),
    runId: text('run_id'),
    rootRunId: text('root_run_id'),
    /** JSON array of agent names, root first. */
    lineagePath: text('lineage_path').notNull(),
    requestedAt: text('requested_at').notNull(),
    decidedAt: text('decided_at'),
    decision: text('decision'),
    scope: text('scope'),
    decidedBy: text('decided_by'),
    /** issue 27: JSON, the actor who decided (a person, a key, or the system for a timeout). */
    decider: text('decider'),
    reason: text('reason'),
  },
  (t) => [
    index('approvals_status_idx').on(t.status, t.askedPosition),
    index('approvals_session_idx').on(t.sessionId, t.askedPosition),
    index('approvals_root_run_idx').on(t.rootRunId, t.askedPosition),
    index('approvals_agent_idx').on(t.agentName, t.askedPosition),
    index('approvals_position_idx').on(t.askedPosition),
  ],
);

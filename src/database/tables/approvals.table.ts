import { column, table } from '../table-description';

/**
 * Read model (issue 14): every permission request that waited for a person, pending until decided or
 * expired. `asked_position` (the global position of `permission.asked`) orders the list and is the cursor.
 */
export const approvals = table(
  'approvals',
  {
    approvalId: column.text('approval_id').primaryKey(),
    askedPosition: column.bigint('asked_position').notNull(),
    status: column.text('status').notNull(),
    kind: column.text('kind').notNull(),
    toolName: column.text('tool_name'),
    /** JSON: the CLI's request as it came. */
    arguments: column.text('arguments'),
    sessionId: column.text('session_id').notNull(),
    childSessionId: column.text('child_session_id'),
    agentName: column.text('agent_name'),
    runId: column.text('run_id'),
    rootRunId: column.text('root_run_id'),
    /** JSON array of agent names, root first. */
    lineagePath: column.text('lineage_path').notNull(),
    requestedAt: column.text('requested_at').notNull(),
    decidedAt: column.text('decided_at'),
    decision: column.text('decision'),
    scope: column.text('scope'),
    decidedBy: column.text('decided_by'),
    /** issue 27: JSON, the actor who decided (a person, a key, or the system for a timeout). */
    decider: column.text('decider'),
    reason: column.text('reason'),
  },
  {
    indexes: {
      approvals_status_idx: ['status', 'askedPosition'],
      approvals_session_idx: ['sessionId', 'askedPosition'],
      approvals_root_run_idx: ['rootRunId', 'askedPosition'],
      approvals_agent_idx: ['agentName', 'askedPosition'],
      approvals_position_idx: ['askedPosition'],
    },
  },
);

import { column, table } from '../table-description';

/**
 * Read model (issue 14): every permission request that waited for a person, pending until decided or
 * expired. `asked_position` (the global position of `permission.asked`) orders the list and is the cursor.
 */
export const approvals = table(
  'approvals',
  {
    approvalId: column.text().primaryKey(),
    askedPosition: column.bigint().notNull(),
    status: column.text().notNull(),
    kind: column.text().notNull(),
    toolName: column.text(),
    /** JSON: the CLI's request as it came. */
    arguments: column.text(),
    sessionId: column.text().notNull(),
    childSessionId: column.text(),
    agentName: column.text(),
    runId: column.text(),
    rootRunId: column.text(),
    /** JSON array of agent names, root first. */
    lineagePath: column.text().notNull(),
    requestedAt: column.text().notNull(),
    decidedAt: column.text(),
    decision: column.text(),
    scope: column.text(),
    decidedBy: column.text(),
    /** issue 27: JSON, the actor who decided (a person, a key, or the system for a timeout). */
    decider: column.text(),
    reason: column.text(),
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

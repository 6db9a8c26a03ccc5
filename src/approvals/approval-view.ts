import { type Actor, actorOfMetadata } from '../common';
import type { ReadTables } from '../database';

export type ApprovalRow = ReadTables['approvals']['$inferSelect'];

/** An approval as the APIs return it (REST's snake_case item of issue 14). */
export interface ApprovalView {
  id: string;
  status: string;
  kind: string;
  tool_name: string | null;
  arguments: unknown;
  session_id: string;
  child_session_id: string | null;
  agent_name: string | null;
  run_id: string | null;
  root_run_id: string | null;
  lineage_path: string[];
  requested_at: string;
  decided_at: string | null;
  decision: string | null;
  scope: string | null;
  /** The client it was decided from (`console`, `api`) or `timeout`, `expired`: kept as it was. */
  decided_by: string | null;
  /** issue 27: who decided (a person, a key; the system for a timeout); null while pending. */
  decider: Actor | null;
  reason: string | null;
}

const parsed = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

export function toApprovalView(row: ApprovalRow): ApprovalView {
  return {
    id: row.approvalId,
    status: row.status,
    kind: row.kind,
    tool_name: row.toolName,
    arguments: parsed(row.arguments),
    session_id: row.sessionId,
    child_session_id: row.childSessionId,
    agent_name: row.agentName,
    run_id: row.runId,
    root_run_id: row.rootRunId,
    lineage_path: parsed(row.lineagePath) as string[],
    requested_at: row.requestedAt,
    decided_at: row.decidedAt,
    decision: row.decision,
    scope: row.scope,
    decided_by: row.decidedBy,
    decider: deciderOf(row),
    reason: row.reason,
  };
}

/** A decision projected before issue 27 has no decider column: it reads as the api actor. */
function deciderOf(row: ApprovalRow): Actor | null {
  if (row.status === 'pending') return null;
  return actorOfMetadata({ by: row.decider === null ? undefined : (JSON.parse(row.decider) as unknown) });
}

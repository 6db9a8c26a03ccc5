import { type DomainEvent, eventGuard, eventReader } from '../event-store';

/** issue 14: the events of an `approval-<id>` stream, one stream per permission request that waits for a person. */
export const ApprovalEvents = {
  asked: 'permission.asked',
  decided: 'approval.decided',
  expired: 'approval.expired',
} as const;

export type ApprovalDecision = 'approve' | 'deny';
export type ApprovalScope = 'once' | 'session';

/** Who asked and what: the request as the CLI sent it, with the lineage of the agent that caused it. */
export interface PermissionAskedData {
  approvalId: string;
  /** The session that owns the handlers (a run's own thread `sub-agent-<runId>` for a delegated run). */
  sessionId: string;
  /** Set when a sub-agent (the CLI's `task` tool) asked. */
  childSessionId?: string;
  agentName?: string;
  runId?: string;
  rootRunId?: string;
  /** Agent names from the root of the team to the one that asked: lead → researcher → …. */
  lineagePath: string[];
  kind: string;
  toolName?: string;
  /** The CLI's request as it sent it (`PermissionRequestArguments` names what Switchboard reads of it). */
  arguments: unknown;
  /** permission.request (protocol 2) or permission.requested (protocol 3). */
  via: string;
  requestId?: string;
}

/** What Switchboard reads of a permission request's `arguments`: the tool call it is about, when the CLI names it. */
export interface PermissionRequestArguments {
  toolCallId?: string;
}

export interface ApprovalDecidedData {
  approvalId: string;
  sessionId: string;
  kind: string;
  toolName?: string;
  decision: ApprovalDecision;
  scope: ApprovalScope;
  reason?: string;
  /** `console` or `api` (the client the person used), or `timeout` when nobody decided in time (`DecisionSource`). */
  decidedBy: string;
  /**
   * The agent that asked: the sub-agent, else the session's own agent (the end of the asked lineage).
   * Added later than the rest: older events lack it (and `runId`); readers take it as unknown.
   */
  agentId?: string;
  runId?: string;
}

/** The request can no longer be answered: its session ended, or the service restarted while it waited. */
export interface ApprovalExpiredData {
  approvalId: string;
  sessionId: string;
  reason: string;
}

export type PermissionAsked = DomainEvent<typeof ApprovalEvents.asked, PermissionAskedData>;
export type ApprovalDecided = DomainEvent<typeof ApprovalEvents.decided, ApprovalDecidedData>;
export type ApprovalExpired = DomainEvent<typeof ApprovalEvents.expired, ApprovalExpiredData>;
export type ApprovalEvent = PermissionAsked | ApprovalDecided | ApprovalExpired;

export const isApprovalEvent = eventGuard<ApprovalEvent>(Object.values(ApprovalEvents));
/** An approval event as another context reads it: by its type, through these payload types. */
export const readApprovalEvent = eventReader<ApprovalEvent>(Object.values(ApprovalEvents));

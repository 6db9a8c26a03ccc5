// The approvals feature's public face: the approvals inbox and its badge; what others use: the pending requests of a session or a run tree.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { ApprovalsBadge, ApprovalsCount } from './ApprovalsBadge';
export { ApprovalsPage } from './ApprovalsPage';
export { approvalHref, type PendingApproval, usePendingApprovals, WaitingApprovals } from './WaitingApprovals';

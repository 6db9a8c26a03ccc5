/**
 * The approvals context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside approvals/ import each other directly, never this file.
 */
export { ApprovalBroker } from './approval-broker';
export { ApprovalEvents, readApprovalEvent } from './approval.events';
export type { PermissionRequestArguments } from './approval.events';
export { ApprovalsModule } from './approvals.module';
export { CLIENT_HEADER, personDecisionSource } from './decision-source';
export type { DecisionSource } from './decision-source';
export { ApprovalsProjection } from './projections/approvals.projection';
export { DecideApproval } from './commands/decide-approval/decide-approval.command';
export { ListApprovals } from './queries/list-approvals/list-approvals.query';

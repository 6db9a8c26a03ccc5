import { contextCatalog, decidedBy, TRACES } from '../common';
import { ApprovalEvents } from './approval.events';

const approvalDecided = decidedBy('approvalDecider', 'approval', ['approvals', TRACES]);

export const approvalCatalog = contextCatalog(
  { ApprovalEvents },
  { [ApprovalEvents.asked]: approvalDecided, [ApprovalEvents.decided]: approvalDecided, [ApprovalEvents.expired]: approvalDecided },
);

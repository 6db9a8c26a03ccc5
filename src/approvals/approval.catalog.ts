import { type CatalogEntry, contextCatalog, TRACES } from '../common/event-catalog-entry';
import { ApprovalEvents } from './approval.events';

const approvalDecided: CatalogEntry = {
  stream: 'approval',
  appendedBy: { decider: 'approvalDecider' },
  projections: ['approvals', TRACES],
  console: 'not shown',
};

export const approvalCatalog = contextCatalog(
  { ApprovalEvents },
  { [ApprovalEvents.asked]: approvalDecided, [ApprovalEvents.decided]: approvalDecided, [ApprovalEvents.expired]: approvalDecided },
);

import { useGraphqlMutation } from '../api/mutation';
import { DecideApprovalMutation } from './operations';

// The approvals page's one write, and what it makes stale.

/** The inbox's query key (each status and page of it). */
export const approvalListKey = ['approvals', 'list'] as const;

/** A decided request leaves the pending list; a refused decision leaves it as it was. */
export const useDecideApproval = () => useGraphqlMutation(DecideApprovalMutation, { stale: () => [approvalListKey], when: 'success' });

import { Query } from '@nestjs/cqrs';
import type { ApprovalRow } from '../../approval-view';

export const APPROVAL_STATUSES = ['pending', 'decided', 'expired'] as const;

export interface ApprovalFilter {
  status?: (typeof APPROVAL_STATUSES)[number];
  sessionId?: string;
  rootRunId?: string;
  agentName?: string;
  /** One approval by id (the answer of a decision). */
  approvalId?: string;
}

export interface ApprovalPage {
  approvals: ApprovalRow[];
  hasNextPage: boolean;
  /** Cursor of the last approval of the page, for `after`; null on an empty page. */
  endCursor: string | null;
}

/** Approvals, newest first, keyset-paged on the position of their `permission.asked`. */
export class ListApprovals extends Query<ApprovalPage> {
  constructor(
    readonly filter: ApprovalFilter,
    readonly first: number,
    readonly after?: string,
  ) {
    super();
  }
}

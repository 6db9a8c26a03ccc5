import { request } from '../api/client';
import { useQuery } from '@tanstack/react-query';
import { countLabel } from './approval-inbox';
import { PendingApprovalIdsQuery } from './operations';
import { useApprovalsLive } from './use-approvals-live';

const COUNTED = 500;

const PENDING = {
  queryKey: ['approvals', 'badge'],
  queryFn: () => request(PendingApprovalIdsQuery, { filter: { status: 'pending' }, first: COUNTED }),
};

/** The live count of pending approvals beside the Approvals link, on every page. */
export function ApprovalsBadge() {
  const pending = useQuery(PENDING);
  useApprovalsLive(pending.refetch);
  const count = pending.data?.approvals.edges.length ?? 0;
  if (count === 0) return null;
  const label = countLabel(count, pending.data?.approvals.pageInfo.hasNextPage ?? false);
  return (
    <span className="nav-count" data-testid="approvals-count">
      {label}
      <span className="visually-hidden"> pending</span>
    </span>
  );
}

/**
 * The same count on the narrow screen's menu button, so a pending approval shows while the menu is
 * closed: it reads what ApprovalsBadge (always mounted in the menu) keeps current, with no query or
 * subscription of its own.
 */
export function ApprovalsCount() {
  const pending = useQuery({ ...PENDING, enabled: false });
  const count = pending.data?.approvals.edges.length ?? 0;
  if (count === 0) return null;
  return (
    <span className="nav-count" data-testid="approvals-count-menu">
      {countLabel(count, pending.data?.approvals.pageInfo.hasNextPage ?? false)}
      <span className="visually-hidden"> pending approvals</span>
    </span>
  );
}

import { request } from '../api/client';
import { useQuery } from '@tanstack/react-query';
import { countLabel } from './approval-inbox';
import { PendingApprovalIdsQuery } from './operations';
import { useApprovalsLive } from './use-approvals-live';

const COUNTED = 500;

/** The live count of pending approvals beside the Approvals link, on every page. */
export function ApprovalsBadge() {
  const pending = useQuery({
    queryKey: ['approvals', 'badge'],
    queryFn: () => request(PendingApprovalIdsQuery, { filter: { status: 'pending' }, first: COUNTED }),
  });
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

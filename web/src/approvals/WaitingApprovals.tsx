import { request } from '../api/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { lineageOf, requestLine } from './approval-inbox';
import { PendingApprovalIdsQuery } from './operations';
import { Icon } from '../ui/icons';
import { useApprovalsLive } from './use-approvals-live';
import type { ApprovalFilterInput } from '../gql/graphql';

export type PendingApproval = Awaited<ReturnType<typeof loadPending>>['approvals']['edges'][number]['node'];

function loadPending(filter: ApprovalFilterInput) {
  return request(PendingApprovalIdsQuery, { filter: { ...filter, status: 'pending' }, first: 100 });
}

/** The requests of one session or one run tree that wait for a person, kept live. */
export function usePendingApprovals(filter: ApprovalFilterInput | undefined): PendingApproval[] {
  const pending = useQuery({
    queryKey: ['approvals', 'pending', filter],
    queryFn: () => loadPending(filter ?? {}),
    enabled: filter !== undefined,
    placeholderData: keepPreviousData,
  });
  useApprovalsLive(pending.refetch);
  return pending.data?.approvals.edges.map((e) => e.node) ?? [];
}

export const approvalHref = (id: string) => `/approvals#approval-${id}`;

/** "Waiting for approval" for each pending request, with a link to decide it in the inbox. */
export function WaitingApprovals({ approvals }: { approvals: PendingApproval[] }) {
  if (approvals.length === 0) return null;
  return (
    <ul className="waiting-approvals" aria-label="Waiting for approval">
      {approvals.map((a) => (
        <li key={a.id} className="waiting-approval">
          <strong>
            <Icon name="waiting" /> Waiting for approval
          </strong>{' '}
          <span className="mono small">{requestLine(a)}</span> <span className="muted small">asked by {lineageOf(a)}</span>{' '}
          <Link to={approvalHref(a.id)}>Decide in Approvals</Link>
        </li>
      ))}
    </ul>
  );
}

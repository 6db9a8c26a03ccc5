import { request } from '../api/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useAgentNames } from '../agents';
import { lineageOf, requestSentence } from './approval-inbox';
import { RawRequest } from './RawRequest';
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

/**
 * "Waiting for approval" for each pending request, said in words as the inbox says it (`requestSentence`,
 * agents by their display names), the raw request under Details, with a link to decide it in the inbox.
 */
export function WaitingApprovals({ approvals }: { approvals: PendingApproval[] }) {
  return approvals.length === 0 ? null : <WaitingList approvals={approvals} />;
}

/** The list itself: the library's names are asked for only while something waits. */
function WaitingList({ approvals }: { approvals: PendingApproval[] }) {
  const names = useAgentNames();
  return (
    <ul className="waiting-approvals" aria-label="Waiting for approval">
      {approvals.map((a) => (
        <li key={a.id} className="waiting-approval">
          <strong>
            <Icon name="waiting" /> Waiting for approval
          </strong>{' '}
          <span>{requestSentence(a, names)}</span> <span className="muted small">asked by {lineageOf(a, names)}</span>{' '}
          <Link to={approvalHref(a.id)}>Decide in Approvals</Link>
          <RawRequest approval={a} />
        </li>
      ))}
    </ul>
  );
}

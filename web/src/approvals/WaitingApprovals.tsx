import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { linkHandler } from '../app/router';
import { lineageOf, requestLine } from './approval-inbox';
import { PendingApprovalIdsQuery } from './operations';
import { useApprovalsLive } from './use-approvals-live';
import type { ApprovalFilterInput } from '../gql/graphql';

export type PendingApproval = Awaited<ReturnType<typeof loadPending>>['approvals']['edges'][number]['node'];

function loadPending(filter: ApprovalFilterInput) {
  return request(PendingApprovalIdsQuery, { filter: { ...filter, status: 'pending' }, first: 100 });
}

/** The requests of one session or one run tree that wait for a person, kept live. */
export function usePendingApprovals(filter: ApprovalFilterInput | undefined): PendingApproval[] {
  const key = filter ? JSON.stringify(filter) : '';
  const pending = useLoad(() => (filter ? loadPending(filter) : Promise.resolve(undefined)), `pending-approvals:${key}`);
  useApprovalsLive(pending.reload);
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
          <strong>⏳ Waiting for approval</strong> <span className="mono small">{requestLine(a)}</span>{' '}
          <span className="muted small">asked by {lineageOf(a)}</span>{' '}
          <a href={approvalHref(a.id)} onClick={linkHandler(approvalHref(a.id))}>
            Decide in Approvals
          </a>
        </li>
      ))}
    </ul>
  );
}

import { useEffect, useId, useState } from 'react';
import { useMay } from '../api/me';
import { type ApiError, request } from '../api/client';
import { asApiError } from '../api/mutation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { ErrorNote } from '../ui/ErrorNote';
import { PageHead } from '../ui/PageHead';
import { useAgentNames } from '../agents';
import { SessionTitleLink } from '../sessions';
import { type AgentNames, groupByRootRun, lineageOf, requestSentence } from './approval-inbox';
import { RawRequest } from './RawRequest';
import { approvalListKey, useDecideApproval } from './mutations';
import { ApprovalsQuery } from './operations';
import { useApprovalsLive } from './use-approvals-live';
import { ColumnHeads } from '../ui/ColumnHeads';

const STATUSES = ['pending', 'decided', 'expired'] as const;
type Status = (typeof STATUSES)[number];
const PAGE_SIZE = 100;

type ApprovalItem = Awaited<ReturnType<typeof loadApprovals>>['approvals']['edges'][number]['node'];

function loadApprovals(status: Status, after: string | null) {
  return request(ApprovalsQuery, { filter: { status }, first: PAGE_SIZE, after });
}

function statusFromUrl(): Status {
  const asked = new URLSearchParams(location.search).get('status');
  return STATUSES.find((s) => s === asked) ?? 'pending';
}

/**
 * One inbox for the permission requests of every session and every team: pending ones grouped by the
 * root run they came from, with who asked (the lineage path) and what the request would do; decided
 * and expired ones with who decided and when. Live: asked, decided and expired reload the list.
 */
export function ApprovalsPage() {
  const navigate = useNavigate();
  const [status, setStatus] = useState<Status>(statusFromUrl);
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const after = cursors[cursors.length - 1];
  const list = useQuery({
    queryKey: [...approvalListKey, status, after],
    queryFn: () => loadApprovals(status, after),
    placeholderData: keepPreviousData,
  });
  useApprovalsLive(list.refetch);

  // A link to one request (#approval-<id>, from the chat or the run page) scrolls to it once it shows.
  const items = list.data?.approvals.edges.map((e) => e.node) ?? [];
  const hash = location.hash;
  const shown = items.some((a) => `#approval-${a.id}` === hash);
  useEffect(() => {
    if (shown) document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'center' });
  }, [shown, hash]);

  const show = (next: Status) => {
    setStatus(next);
    setCursors([null]);
    void navigate(next === 'pending' ? '/approvals' : `/approvals?status=${next}`, { replace: true });
  };
  const pageInfo = list.data?.approvals.pageInfo;
  const names = useAgentNames();

  return (
    <section className="page" aria-labelledby="approvals-title">
      <PageHead titleId="approvals-title" title="Approvals">
        Permission requests that wait for a person (a session&apos;s <code>askKinds</code> / <code>askTools</code>), from every agent of every team. The
        agent waits until you decide, the request times out, or its session ends.
      </PageHead>

      <div className="segmented" role="group" aria-label="Show">
        {STATUSES.map((s) => (
          <button key={s} type="button" aria-pressed={s === status} onClick={() => show(s)}>
            {s[0].toUpperCase() + s.slice(1)}
          </button>
        ))}
      </div>

      <ErrorNote error={list.error} title="The approvals could not be loaded" />
      {list.data && items.length === 0 && <p className="empty">{status === 'pending' ? 'Nothing waits for a decision.' : `No ${status} requests.`}</p>}

      {status === 'pending' ? (
        groupByRootRun(items).map((group) => (
          <section key={group.key} className="approval-group" aria-labelledby={`approval-group-${group.key}`}>
            <h2 id={`approval-group-${group.key}`}>
              {group.rootRunId ? (
                <>
                  Run{' '}
                  <Link className="mono" to={`/runs/${group.rootRunId}`}>
                    {group.rootRunId.slice(0, 8)}
                  </Link>
                </>
              ) : (
                <SessionTitleLink sessionId={group.sessionId} />
              )}{' '}
              <span className="muted small">{group.approvals.length} waiting</span>
            </h2>
            <ul className="approval-list">
              {group.approvals.map((approval) => (
                <li key={approval.id}>
                  <PendingApproval approval={approval} names={names} />
                </li>
              ))}
            </ul>
          </section>
        ))
      ) : (
        <SettledApprovals items={items} names={names} />
      )}

      {(cursors.length > 1 || pageInfo?.hasNextPage) && (
        <div className="pager">
          <button type="button" className="ghost" disabled={cursors.length <= 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous
          </button>
          <button
            type="button"
            className="ghost"
            disabled={!pageInfo?.hasNextPage}
            onClick={() => pageInfo?.endCursor && setCursors((c) => [...c, pageInfo.endCursor ?? null])}
          >
            Next
          </button>
        </div>
      )}
    </section>
  );
}

function PendingApproval({ approval, names }: { approval: ApprovalItem; names: AgentNames }) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [scope, setScope] = useState<'once' | 'session'>('once');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const mayApprove = useMay('approve');
  const decideApproval = useDecideApproval();

  const decide = async (decision: 'approve' | 'deny') => {
    setBusy(true);
    setError(undefined);
    try {
      await decideApproval.mutateAsync({ id: approval.id, input: { decision, scope, ...(reason.trim() ? { reason: reason.trim() } : {}) } });
    } catch (caught) {
      setError(asApiError(caught));
      setBusy(false);
    }
  };

  return (
    <article id={`approval-${approval.id}`} className="approval-card" aria-labelledby={`${id}-title`}>
      <header>
        <h3 id={`${id}-title`}>{requestSentence(approval, names)}</h3>
        <p className="small">
          Asked by <strong>{lineageOf(approval, names)}</strong>
          {approval.runId && (
            <>
              {' '}
              in run{' '}
              <Link className="mono" to={`/runs/${approval.runId}`}>
                {approval.runId.slice(0, 8)}
              </Link>
            </>
          )}{' '}
          · in <SessionTitleLink sessionId={approval.sessionId} /> ·{' '}
          <time dateTime={approval.requestedAt}>{new Date(approval.requestedAt).toLocaleTimeString()}</time>
        </p>
      </header>
      <RawRequest approval={approval} />
      {!mayApprove && <p className="muted small">Waiting for an approver: your role may not decide approvals.</p>}
      {mayApprove && (
        <div className="approval-decide">
          <div className="field">
            <label htmlFor={`${id}-reason`}>Reason</label>
            <input
              id={`${id}-reason`}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              placeholder="The agent reads it when you deny"
              disabled={busy}
              maxLength={1000}
            />
          </div>
          <fieldset className="radio-row scope-options" disabled={busy}>
            <legend className="visually-hidden">Scope</legend>
            <label>
              <input type="radio" name={`${id}-scope`} checked={scope === 'once'} onChange={() => setScope('once')} /> This request
            </label>
            <label>
              <input type="radio" name={`${id}-scope`} checked={scope === 'session'} onChange={() => setScope('session')} /> The rest of the session
            </label>
          </fieldset>
          <div className="approval-actions">
            <button type="button" className="primary" onClick={() => void decide('approve')} disabled={busy}>
              Approve
            </button>
            <button type="button" className="danger" onClick={() => void decide('deny')} disabled={busy}>
              Deny
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={error} title="The decision was not recorded" />
    </article>
  );
}

function SettledApprovals({ items, names }: { items: ApprovalItem[]; names: AgentNames }) {
  if (items.length === 0) return null;
  return (
    <table className="data-table">
      <ColumnHeads names={['Request', 'Chat', 'Outcome', 'By', 'When']} />
      <tbody>
        {items.map((a) => (
          <tr key={a.id} id={`approval-${a.id}`}>
            <td>
              {requestSentence(a, names)}
              <RawRequest approval={a} />
            </td>
            <td>
              <SessionTitleLink sessionId={a.sessionId} />
            </td>
            <td>
              <span className={`badge ${a.status === 'expired' ? '' : a.decision === 'approve' ? 'status-live' : 'status-attention'}`}>
                {a.status === 'expired' ? 'expired' : a.decision === 'approve' ? 'approved' : 'denied'}
              </span>
              {a.scope === 'session' && <span className="muted small"> for the session</span>}
              {a.reason && <div className="small">{a.reason}</div>}
            </td>
            <td>{deciderOf(a)}</td>
            <td>{a.decidedAt && <time dateTime={a.decidedAt}>{new Date(a.decidedAt).toLocaleString()}</time>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Who decided: the person's or key's name (issue 27), with where from; a timeout or an ended session says so. */
function deciderOf(a: { status: string; decidedBy?: string | null; decidedByName?: string | null }): string {
  if (a.status === 'expired') return 'its session ended';
  if (a.decidedBy === 'timeout') return 'timeout';
  if (!a.decidedByName) return a.decidedBy ?? '';
  return a.decidedBy === 'console' || a.decidedBy === 'api' ? `${a.decidedByName} (${a.decidedBy})` : a.decidedByName;
}

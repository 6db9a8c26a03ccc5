import { Fragment, useMemo, useState } from 'react';
import { ApiError, request } from '../api/client';
import { useQuery } from '@tanstack/react-query';
import { usePolling } from '../api/hooks';
import { Link } from 'react-router';
import { ErrorNote } from '../ui/ErrorNote';
import { DestroySessionMutation, ResumeSessionMutation, SessionListQuery } from './operations';
import { actionsFor, type SessionAction, statusTone, timeAgo } from './session-list';
import { useModalDialog } from '../ui/modal-dialog';

/** The newest sessions the list shows (the service allows up to 1,000 a page). */
const SHOWN = 200;
/** No subscription reports status changes across sessions: the list asks again this often while it is visible. */
const POLL_MS = 3000;

interface Pending {
  action: SessionAction;
  sessionId: string;
  agent: string | undefined;
}

export function SessionsPage() {
  const list = useQuery({ queryKey: ['sessions', 'list'], queryFn: () => request(SessionListQuery, { limit: SHOWN }) });
  const [confirming, setConfirming] = useState<Pending | undefined>();
  const [acting, setActing] = useState<string | undefined>();
  const [errors, setErrors] = useState<ReadonlyMap<string, { action: SessionAction; error: ApiError }>>(new Map());
  const [done, setDone] = useState<string | undefined>();
  const [now, setNow] = useState(() => Date.now());

  usePolling(() => {
    void list.refetch();
    setNow(Date.now());
  }, POLL_MS);

  const sessions = useMemo(() => list.data?.sessions ?? [], [list.data]);
  const agents = useMemo(() => new Map((list.data?.agents ?? []).map((a) => [a.id, a])), [list.data]);

  const run = async ({ action, sessionId }: Pending) => {
    setConfirming(undefined);
    setActing(sessionId);
    setDone(undefined);
    setErrors((current) => without(current, sessionId));
    try {
      if (action === 'resume') {
        const { resumeSession } = await request(ResumeSessionMutation, { sessionId });
        setDone(`Session ${sessionId} resumed: it is ${resumeSession.status}.`);
      } else {
        await request(DestroySessionMutation, { sessionId });
        setDone(`Session ${sessionId} destroyed.`);
      }
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError(String(error), 'error', 0);
      setErrors((current) => new Map(current).set(sessionId, { action, error: apiError }));
    } finally {
      setActing(undefined);
      void list.refetch();
    }
  };

  const agentLabel = (id: string) => {
    const agent = agents.get(id);
    return agent ? `${agent.icon ? `${agent.icon} ` : ''}${agent.name}` : id;
  };

  return (
    <section className="page" aria-labelledby="sessions-title">
      <div className="page-head">
        <div>
          <h1 id="sessions-title">Sessions</h1>
          <p className="muted">Every Copilot session, newest first, with its agent and team. Statuses follow the service as they change.</p>
        </div>
        <div className="page-actions">
          <Link className="button primary" to="/sessions/new">
            New session
          </Link>
        </div>
      </div>

      {done && (
        <p className="notice" role="status">
          {done}
        </p>
      )}
      <ErrorNote error={list.error} title="The sessions could not be loaded" />

      {list.data && sessions.length === 0 && (
        <div className="empty">
          <h2>No sessions yet</h2>
          <p>
            A session runs one of your library agents with its team of sub-agents. Start one with <code>POST /api/sessions</code> and{' '}
            <code>{'{ "agentId": "…" }'}</code> (or the <code>createSession</code> mutation); it shows up here, and its status follows live.
          </p>
          <p className="page-actions centered">
            <Link className="button primary" to="/agents">
              Pick an agent
            </Link>
            <a className="button" href="/api/docs">
              API docs
            </a>
          </p>
        </div>
      )}
      {list.isPending && (
        <p role="status" className="muted">
          Loading sessions…
        </p>
      )}

      {sessions.length > 0 && (
        <div className="table-wrap">
          <table className="session-table">
            <caption className="visually-hidden">Sessions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Status</th>
                <th scope="col">Agent</th>
                <th scope="col">Sub-agents</th>
                <th scope="col">Last activity</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => {
                const failure = errors.get(session.sessionId);
                const agentName = session.agentId ? agentLabel(session.agentId) : undefined;
                return (
                  <Fragment key={session.sessionId}>
                    <tr data-session={session.sessionId}>
                      <td>
                        <Link to={`/sessions/${session.sessionId}`}>
                          <code className="session-id">{session.sessionId}</code>
                        </Link>
                        <div className="muted small">{session.model}</div>
                      </td>
                      <td>
                        <span className={`badge session-status status-${statusTone(session.status)}`}>{session.status}</span>
                        {session.statusReason && <div className="muted small status-reason">{session.statusReason}</div>}
                      </td>
                      <td>
                        {session.agentId ? (
                          <AgentLink id={session.agentId} label={agentName!} known={agents.has(session.agentId)} />
                        ) : (
                          <span className="muted">Inline config</span>
                        )}
                      </td>
                      <td>
                        {session.subAgents.length === 0 ? (
                          <span className="muted">None</span>
                        ) : (
                          <ul className="badges plain" aria-label={`Sub-agents of ${session.sessionId}`}>
                            {session.subAgents.map((id) => (
                              <li key={id}>
                                <AgentLink id={id} label={agentLabel(id)} known={agents.has(id)} badge />
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                      <td>
                        <time dateTime={session.updatedAt} title={new Date(session.updatedAt).toLocaleString()}>
                          {timeAgo(session.updatedAt, now)}
                        </time>
                      </td>
                      <td className="row-actions">
                        {actionsFor(session.status).map((action) => (
                          <button
                            key={action}
                            type="button"
                            className={action === 'destroy' ? 'danger' : undefined}
                            disabled={acting !== undefined}
                            aria-label={`${action === 'resume' ? 'Resume' : 'Destroy'} session ${session.sessionId}`}
                            onClick={() => setConfirming({ action, sessionId: session.sessionId, agent: agentName })}
                          >
                            {acting === session.sessionId
                              ? action === 'resume'
                                ? 'Resuming…'
                                : 'Destroying…'
                              : action === 'resume'
                                ? 'Resume'
                                : 'Destroy'}
                          </button>
                        ))}
                      </td>
                    </tr>
                    {failure && (
                      <tr className="row-error">
                        <td colSpan={6}>
                          <ErrorNote
                            error={failure.error}
                            title={`${failure.action === 'resume' ? 'Resume' : 'Destroy'} of ${session.sessionId} failed`}
                          />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
          {sessions.length === SHOWN && <p className="muted">Showing the newest {SHOWN} sessions.</p>}
        </div>
      )}

      {confirming && <ConfirmAction pending={confirming} onCancel={() => setConfirming(undefined)} onConfirm={() => void run(confirming)} />}
    </section>
  );
}

function AgentLink({ id, label, known, badge }: { id: string; label: string; known: boolean; badge?: boolean }) {
  if (!known) {
    return (
      <span className={badge ? 'badge problem' : 'problem-text'} title="This agent is no longer in the library">
        {id} (deleted)
      </span>
    );
  }
  return (
    <Link className={badge ? 'badge team' : undefined} to={`/agents/${id}`}>
      {label}
    </Link>
  );
}

function ConfirmAction({ pending, onCancel, onConfirm }: { pending: Pending; onCancel: () => void; onConfirm: () => void }) {
  const dialog = useModalDialog();
  const resume = pending.action === 'resume';
  const who = pending.agent ? ` (${pending.agent})` : '';
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="confirm-session-title" onCancel={onCancel}>
      <h2 id="confirm-session-title">{resume ? 'Resume' : 'Destroy'} this session?</h2>
      <p>
        <code className="session-id">{pending.sessionId}</code>
        {who}
      </p>
      {resume ? (
        <p>It is opened again on the running Copilot CLI, with its agent and sub-agents as the library has them now, and can take messages again.</p>
      ) : (
        <p>The Copilot CLI drops it and it cannot be resumed or sent messages again. Its history stays in the event log.</p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel} autoFocus>
          {resume ? 'Cancel' : 'Keep it'}
        </button>
        <button type="button" className={resume ? 'primary' : 'danger'} onClick={onConfirm}>
          {resume ? 'Resume' : 'Destroy'}
        </button>
      </div>
    </dialog>
  );
}

function without<K, V>(map: ReadonlyMap<K, V>, key: K): ReadonlyMap<K, V> {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
}

import { useId, useMemo, useState } from 'react';
import { useMay } from '../api/me';
import { type ApiError, request } from '../api/client';
import { asApiError } from '../api/mutation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePolling, useSettled } from '../api/hooks';
import { Link } from 'react-router';
import { ErrorNote } from '../ui/ErrorNote';
import { PageHead } from '../ui/PageHead';
import { Icon } from '../ui/icons';
import { sessionKeys, useDestroySession, useResumeSession } from './mutations';
import { SessionListQuery } from './operations';
import type { SessionListQuery as SessionListData } from '../gql/graphql';
import { actionsFor, runLabel, type SessionAction, sessionTitle, shortId, statusTone, timeAgo } from './session-list';
import { useModalDialog } from '../ui/modal-dialog';

/** The newest sessions the list shows (the service allows up to 1,000 a page). */
const SHOWN = 200;
/** No subscription reports status changes across sessions: the list asks again this often while it is visible. */
const POLL_MS = 3000;
/** The search asks the service once typing pauses, not at every key. */
const SEARCH_DELAY_MS = 250;

type ListedSession = SessionListData['sessions'][number];

interface Pending {
  action: SessionAction;
  sessionId: string;
  title: string;
  agent: string | undefined;
}

/**
 * The chats: each session by its title (the CLI's, else its first message) with its last message, agent,
 * status and last activity, and a search over title, message and agent. A delegated run works in a
 * session of its own; that one belongs to its run (the run page shows it), so it is not listed as a chat
 * unless asked for, and then it says which run it is part of.
 */
export function SessionsPage() {
  const mayOperate = useMay('operate');
  const [search, setSearch] = useState('');
  const words = useSettled(search.trim(), SEARCH_DELAY_MS);
  const [withRuns, setWithRuns] = useState(false);
  const list = useQuery({
    queryKey: [...sessionKeys.list, words, withRuns],
    queryFn: () => request(SessionListQuery, { limit: SHOWN, search: words || null, includeRunSessions: withRuns }),
    placeholderData: keepPreviousData,
  });
  const writes = { resume: useResumeSession(), destroy: useDestroySession() };
  const [confirming, setConfirming] = useState<Pending | undefined>();
  const [acting, setActing] = useState<string | undefined>();
  const [errors, setErrors] = useState<ReadonlyMap<string, { action: SessionAction; error: ApiError }>>(new Map());
  const [done, setDone] = useState<string | undefined>();
  const [now, setNow] = useState(() => Date.now());
  const searchId = useId();

  usePolling(() => {
    void list.refetch();
    setNow(Date.now());
  }, POLL_MS);

  const sessions = useMemo(() => list.data?.sessions ?? [], [list.data]);
  const agents = useMemo(() => new Map((list.data?.agents ?? []).map((a) => [a.id, a])), [list.data]);
  const filtered = words !== '' || withRuns;

  const run = async ({ action, sessionId, title }: Pending) => {
    setConfirming(undefined);
    setActing(sessionId);
    setDone(undefined);
    setErrors((current) => without(current, sessionId));
    try {
      if (action === 'resume') {
        const { resumeSession } = await writes.resume.mutateAsync({ sessionId });
        setDone(`Session “${title}” resumed: it is ${resumeSession.status}.`);
      } else {
        await writes.destroy.mutateAsync({ sessionId });
        setDone(`Session “${title}” destroyed.`);
      }
    } catch (error) {
      const apiError = asApiError(error);
      setErrors((current) => new Map(current).set(sessionId, { action, error: apiError }));
    } finally {
      setActing(undefined);
    }
  };

  const agentName = (id: string) => agents.get(id)?.name ?? id;

  return (
    <section className="page" aria-labelledby="sessions-title">
      <PageHead
        titleId="sessions-title"
        title="Sessions"
        actions={
          mayOperate && (
            <div className="page-actions">
              <Link className="button primary" to="/sessions/new">
                New session
              </Link>
            </div>
          )
        }
      >
        Your chats with agents, newest first. The work an agent delegates runs in a session of its own, shown with its run under Runs.
      </PageHead>

      {done && (
        <p className="notice" role="status">
          {done}
        </p>
      )}
      <ErrorNote error={list.error} title="The sessions could not be loaded" />

      {(sessions.length > 0 || filtered) && (
        <div className="toolbar">
          <div className="search search-field">
            <label htmlFor={searchId} className="visually-hidden">
              Search sessions
            </label>
            <Icon name="search" />
            <input
              id={searchId}
              type="search"
              placeholder="Search by title, message or agent"
              maxLength={200}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <label className="inline-check">
            <input type="checkbox" checked={withRuns} onChange={(e) => setWithRuns(e.target.checked)} /> Also the sessions of runs
          </label>
        </div>
      )}

      {list.data && sessions.length === 0 && !filtered && (
        <div className="empty">
          <h2>No sessions yet</h2>
          <p>
            A session is a chat with one of your library agents and its team of sub-agents. Start one, and it shows up here with its status as it changes.
          </p>
          <p className="page-actions centered">
            {mayOperate && (
              <Link className="button primary" to="/sessions/new">
                New session
              </Link>
            )}
            <Link className="button" to="/agents">
              Pick an agent
            </Link>
          </p>
        </div>
      )}
      {list.isPending && (
        <p role="status" className="muted">
          Loading sessions…
        </p>
      )}
      {list.data && filtered && (
        <p role="status" className="muted result-count">
          {sessions.length === 0
            ? words
              ? `No session matches “${words}”.`
              : 'No sessions.'
            : `${sessions.length} session${sessions.length === 1 ? '' : 's'}${words ? ` matching “${words}”` : ''}`}
        </p>
      )}

      {sessions.length > 0 && (
        <ul className="session-list" aria-label="Sessions, newest first">
          {sessions.map((session) => (
            <SessionItem
              key={session.sessionId}
              session={session}
              now={now}
              agentName={agentName}
              knownAgent={(id) => agents.has(id)}
              acting={acting}
              failure={errors.get(session.sessionId)}
              onAction={(action) =>
                setConfirming({
                  action,
                  sessionId: session.sessionId,
                  title: sessionTitle(session),
                  agent: session.agentId ? agentName(session.agentId) : undefined,
                })
              }
            />
          ))}
        </ul>
      )}
      {sessions.length === SHOWN && <p className="muted">Showing the newest {SHOWN} sessions.</p>}

      {confirming && <ConfirmAction pending={confirming} onCancel={() => setConfirming(undefined)} onConfirm={() => void run(confirming)} />}
    </section>
  );
}

function SessionItem({
  session,
  now,
  agentName,
  knownAgent,
  acting,
  failure,
  onAction,
}: {
  session: ListedSession;
  now: number;
  agentName: (id: string) => string;
  knownAgent: (id: string) => boolean;
  acting: string | undefined;
  failure: { action: SessionAction; error: ApiError } | undefined;
  onAction: (action: SessionAction) => void;
}) {
  const titleId = useId();
  const title = sessionTitle(session);
  // A run's session is stopped, resumed and read through its run: no chat actions here.
  const mayOperate = useMay('operate');
  const actions = session.runId || !mayOperate ? [] : actionsFor(session.status);
  return (
    <li className="session-item" data-session={session.sessionId}>
      <div className="session-item-main">
        <h2 className="session-title" id={titleId}>
          <Link to={`/sessions/${session.sessionId}`}>{title}</Link>
        </h2>
        <p className={session.preview ? 'session-preview' : 'session-preview muted'}>{session.preview ?? 'No messages yet'}</p>
        {session.runId && (
          <p className="session-run small">
            <Icon name="run" /> Part of run{' '}
            <Link to={`/runs/${session.runId}`}>{session.run ? runLabel(session.run, agentName(session.run.agentId)) : session.runId}</Link>
          </p>
        )}
        <div className="session-meta small">
          <span className="session-agent">
            <Icon name="agent" />{' '}
            {session.agentId ? (
              <AgentLink id={session.agentId} label={agentName(session.agentId)} known={knownAgent(session.agentId)} />
            ) : (
              <span className="muted">Inline config</span>
            )}
          </span>
          {session.subAgents.length > 0 && (
            <span className="session-team">
              <Icon name="team" label="Sub-agents" />
              <ul className="badges plain" aria-label={`Sub-agents of ${title}`}>
                {session.subAgents.map((id) => (
                  <li key={id}>
                    <AgentLink id={id} label={agentName(id)} known={knownAgent(id)} badge />
                  </li>
                ))}
              </ul>
            </span>
          )}
          <span className={`badge session-status status-${statusTone(session.status)}`}>{session.status}</span>
          <time dateTime={session.updatedAt} title={new Date(session.updatedAt).toLocaleString()}>
            {timeAgo(session.updatedAt, now)}
          </time>
          <span className="muted">{session.model}</span>
          <code className="session-id muted" title={session.sessionId}>
            {shortId(session.sessionId)}
          </code>
        </div>
        {session.statusReason && <p className="muted small status-reason">{session.statusReason}</p>}
      </div>
      {actions.length > 0 && (
        <div className="row-actions">
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              className={action === 'destroy' ? 'danger' : undefined}
              disabled={acting !== undefined}
              aria-describedby={titleId}
              onClick={() => onAction(action)}
            >
              {acting === session.sessionId ? (action === 'resume' ? 'Resuming…' : 'Destroying…') : action === 'resume' ? 'Resume' : 'Destroy'}
            </button>
          ))}
        </div>
      )}
      {failure && (
        <div className="session-item-error">
          <ErrorNote error={failure.error} title={`${failure.action === 'resume' ? 'Resume' : 'Destroy'} of “${title}” failed`} />
        </div>
      )}
    </li>
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
        <strong>{pending.title}</strong>
        {who}
      </p>
      <p className="muted small">
        <code className="session-id">{pending.sessionId}</code>
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

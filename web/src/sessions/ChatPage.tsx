import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMay } from '../api/me';
import { type ApiError, request, subscribe } from '../api/client';
import { asApiError } from '../api/mutation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCoalesced } from '../api/hooks';
import { Link } from 'react-router';
import { usePendingApprovals, WaitingApprovals } from '../approvals';
import { SessionChanges } from '../changes';
import { ChoiceList } from '../ui/ChoiceList';
import { ErrorNote } from '../ui/ErrorNote';
import { ProviderProblem } from '../health';
import { ModelCallList, ModelRouteNote, useModelCallsRecorded, useSessionModelCalls } from '../model-calls';
import { Composer, ConversationView, QuestionCard, SessionSetup, SubAgentModelCalls } from './ChatParts';
import { SteerBox } from '../ui/SteerBox';
import { acceptsMessages, automaticPermissionCount, conversationOf, type SessionEventLike, steerTargetsOf, visibleItems } from './conversation';
import { Icon } from '../ui/icons';
import { SessionPause } from './SessionPause';
import { SessionPolicyPanel } from './SessionPolicyPanel';
import {
  ChatSessionQuery,
  EligibleSubAgentsQuery,
  PendingUserInputQuery,
  SessionEventsSubscription,
  SessionHistoryQuery,
  SessionStatusQuery,
} from './operations';
import {
  sessionKeys,
  useAbortSessionTurn,
  useAnswerUserInput,
  useChangeSessionSubAgents,
  useResumeSession,
  useSendMessage,
  useSteerSession,
} from './mutations';
import { statusTone } from './session-list';
import { subAgentChoices } from './team-choices';
import { sessionToolsOf } from './tool-choices';

/** The events that change the side panel (the team, once it resumes with it; the budget, as runs end) or the question cards: reload those then. */
const RELOADS_SESSION = /^(session\.(sub_agents_changed|resumed)|run\.ended)$/;
const RELOADS_QUESTIONS = /^user_input\./;

/** Events per page of history: the newest page opens the chat, earlier ones load as the reader scrolls up. */
const HISTORY_PAGE = 200;

/**
 * One session's conversation: its newest events first (a long session is never loaded whole), earlier
 * pages on scrolling up, then live from its event stream after the newest page.
 */
export function ChatPage({ sessionId }: { sessionId: string }) {
  const mayOperate = useMay('operate');
  // A question an agent asked: an operator or an approver may answer it.
  const mayAnswer = useMay('approve') || mayOperate;
  const session = useQuery({ queryKey: sessionKeys.chat(sessionId), queryFn: () => request(ChatSessionQuery, { id: sessionId }) });
  const sessionStatus = useQuery({ queryKey: sessionKeys.status(sessionId), queryFn: () => request(SessionStatusQuery, { id: sessionId }) });
  const agentId = session.data?.session?.agentId ?? undefined;
  const eligible = useQuery({
    queryKey: ['agents', 'eligible', agentId ?? ''],
    queryFn: () => request(EligibleSubAgentsQuery, { exclude: agentId }),
    placeholderData: keepPreviousData,
  });
  const questions = useQuery({ queryKey: sessionKeys.questions(sessionId), queryFn: () => request(PendingUserInputQuery, { sessionId }) });
  const waiting = usePendingApprovals(useMemo(() => ({ sessionId }), [sessionId]));
  // A contiguous range of the stream, oldest first: the pages loaded so far, then what arrived live.
  const [events, setEvents] = useState<SessionEventLike[]>([]);
  const [opened, setOpened] = useState(false);
  const [hasEarlier, setHasEarlier] = useState(false);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const [historyError, setHistoryError] = useState<ApiError | undefined>();
  const firstPosition = useRef<number | undefined>(undefined);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<ApiError | undefined>();
  const [teamError, setTeamError] = useState<ApiError | undefined>();
  const [control, setControl] = useState<'resuming' | 'stopping' | undefined>();
  const [controlError, setControlError] = useState<{ action: 'resume' | 'stop'; error: ApiError } | undefined>();
  const [showAutomatic, setShowAutomatic] = useState(false);
  const [teamSaved, setTeamSaved] = useState<string | undefined>();
  // A toggle shows at once; the session's next load (after the save) is the truth again.
  const [pendingTeam, setPendingTeam] = useState<{ for: unknown; subAgents: string[] } | undefined>();
  const writes = {
    send: useSendMessage(),
    resume: useResumeSession(),
    abort: useAbortSessionTurn(),
    steer: useSteerSession(),
    changeTeam: useChangeSessionSubAgents(),
    answer: useAnswerUserInput(),
  };
  const reloadSession = useCoalesced(session.refetch, 200);
  const reloadStatus = useCoalesced(sessionStatus.refetch, 100);
  const reloadQuestions = useCoalesced(questions.refetch, 100);

  useEffect(() => {
    // The page is keyed by the session id (App), so its events start empty for each session.
    // The newest page first, then live after it. graphql-ws re-subscribes with the same variables after a
    // reconnect: the replay is deduplicated by stream position, so nothing shows twice and nothing
    // committed meanwhile is missed.
    let unsubscribe: (() => void) | undefined;
    let closed = false;
    request(SessionHistoryQuery, { sessionId, last: HISTORY_PAGE }).then(
      ({ sessionHistory: page }) => {
        if (closed) return;
        firstPosition.current = page.events[0]?.streamPosition;
        setEvents(page.events);
        setHasEarlier(page.hasEarlier);
        setOpened(true);
        // What happened between the first reads and this page reaches no subscription (it starts after
        // the page): ask the status and the questions again, so nothing up to the page's version is missed.
        reloadStatus();
        reloadQuestions();
        unsubscribe = subscribe(SessionEventsSubscription, { sessionId, after: page.version }, ({ sessionEvents: event }) => {
          setEvents((current) =>
            current.length > 0 && event.streamPosition <= current[current.length - 1].streamPosition ? current : [...current, event],
          );
          firstPosition.current ??= event.streamPosition;
          // Any event may move the status; the service has already folded it by the time it arrives here.
          reloadStatus();
          if (RELOADS_SESSION.test(event.type)) reloadSession();
          if (RELOADS_QUESTIONS.test(event.type)) reloadQuestions();
        });
      },
      (error: unknown) => {
        if (!closed) setHistoryError(asApiError(error));
      },
    );
    return () => {
      closed = true;
      unsubscribe?.();
    };
  }, [sessionId, reloadSession, reloadStatus, reloadQuestions]);

  const loadEarlier = useCallback(() => {
    const before = firstPosition.current;
    if (before === undefined || before <= 1) return;
    setLoadingEarlier(true);
    request(SessionHistoryQuery, { sessionId, before, last: HISTORY_PAGE })
      .then(({ sessionHistory: page }) => {
        if (firstPosition.current !== before) return; // the page moved on meanwhile (another session)
        firstPosition.current = page.events[0]?.streamPosition ?? before;
        setEvents((current) => [...page.events.filter((e) => e.streamPosition < before), ...current]);
        setHasEarlier(page.hasEarlier);
      })
      .catch((error: unknown) => setHistoryError(asApiError(error)))
      .finally(() => setLoadingEarlier(false));
  }, [sessionId]);

  const info = session.data?.session;
  const conversation = useMemo(() => conversationOf(events), [events]);
  const openQuestions = useMemo(() => new Set((questions.data?.pendingUserInput ?? []).map((q) => q.requestId)), [questions.data]);
  const shownItems = useMemo(
    () => visibleItems(conversation.items, { automaticPermissions: showAutomatic, openQuestions }),
    [conversation.items, showAutomatic, openQuestions],
  );
  const automaticCount = useMemo(() => automaticPermissionCount(conversation.items), [conversation.items]);
  // The runs the conversation names (its delegations' cards): the Changes view lists their merges.
  const runs = useMemo(
    () => conversation.items.flatMap((item) => (item.kind === 'run' && item.runId ? [{ runId: item.runId, agentId: item.agentId }] : [])),
    [conversation.items],
  );
  // The session's model calls: the side panel lists them all, a sub-agent's step its own.
  const recorded = useModelCallsRecorded();
  const modelCalls = useSessionModelCalls(sessionId, conversation.lastPosition);
  const agents = useMemo(() => session.data?.agents ?? [], [session.data]);
  const known = useMemo(() => new Map(agents.map((a) => [a.id, a])), [agents]);
  const agent = agentId ? known.get(agentId) : undefined;
  const status = sessionStatus.data?.session?.status ?? info?.status ?? 'starting';
  const team = pendingTeam && pendingTeam.for === session.data ? pendingTeam.subAgents : (info?.subAgents ?? []);
  const working = status === 'running' || status === 'starting';

  const send = async (prompt: string) => {
    setSending(true);
    setSendError(undefined);
    try {
      await writes.send.mutateAsync({ sessionId, prompt });
      return true;
    } catch (error) {
      setSendError(asApiError(error));
      return false;
    } finally {
      setSending(false);
    }
  };

  /** Resume (after a restart) or stop the running turn; the status that follows arrives with the events. */
  const act = async (action: 'resume' | 'stop') => {
    setControl(action === 'resume' ? 'resuming' : 'stopping');
    setControlError(undefined);
    try {
      if (action === 'resume') await writes.resume.mutateAsync({ sessionId });
      else await writes.abort.mutateAsync({ sessionId });
    } catch (error) {
      setControlError({ action, error: asApiError(error) });
    } finally {
      setControl(undefined);
    }
  };

  const steer = async (message: string, subagentId: string | undefined) => {
    await writes.steer.mutateAsync({ sessionId, message, subagentId });
  };
  const steerTargets = useMemo(() => steerTargetsOf(conversation.items, agent?.name ?? agentId ?? 'main agent'), [conversation.items, agent, agentId]);

  const changeTeam = async (next: string[]) => {
    setPendingTeam({ for: session.data, subAgents: next });
    setTeamError(undefined);
    setTeamSaved(undefined);
    try {
      await writes.changeTeam.mutateAsync({ sessionId, subAgents: next });
      setTeamSaved('Saved: the session uses them from its next resume.');
    } catch (error) {
      setPendingTeam(undefined);
      setTeamError(asApiError(error));
    }
  };

  if (session.data && !info) {
    return (
      <section className="page">
        <h1>Session not found</h1>
        <p>
          There is no session <code>{sessionId}</code>. <Link to="/sessions">Back to the sessions</Link>.
        </p>
      </section>
    );
  }

  return (
    <section className="page chat-page" aria-labelledby="chat-title">
      <div className="page-head">
        <div>
          <p className="breadcrumb">
            <Link to="/sessions">Sessions</Link> /
          </p>
          <h1 id="chat-title">
            {agent ? `${agent.icon ? `${agent.icon} ` : ''}${agent.name}` : 'Session'}{' '}
            <span className={`badge status-${statusTone(status)}`} data-testid="session-status">
              {status}
            </span>
          </h1>
          <p className="muted small">
            <code className="session-id">{sessionId}</code>
            {info && <> · {info.model}</>}
          </p>
        </div>
      </div>
      <ErrorNote error={session.error} title="The session could not be loaded" />
      <ProviderProblem />

      <div className="chat-layout">
        <div className="chat-main">
          {!opened && !historyError && <p className="muted">Loading the conversation…</p>}
          <ErrorNote error={historyError} title="The conversation could not be loaded" />
          {automaticCount > 0 && (
            <label className="chat-filter small">
              <input type="checkbox" checked={showAutomatic} onChange={(e) => setShowAutomatic(e.target.checked)} /> Show automatic approvals of the
              session&apos;s own tools ({automaticCount})
            </label>
          )}
          {/* The provider-problem banner (web/src/health) goes here: above the conversation, where a failed turn is read. */}
          <SubAgentModelCalls.Provider value={modelCalls.calls}>
            <ConversationView
              items={shownItems}
              working={working}
              earlier={{ has: hasEarlier && !historyError, loading: loadingEarlier, load: loadEarlier }}
            />
          </SubAgentModelCalls.Provider>
          <ErrorNote error={questions.error} title="The pending questions could not be loaded" />
          {(mayAnswer ? (questions.data?.pendingUserInput ?? []) : []).map((q) => (
            <QuestionCard
              key={q.requestId}
              question={q}
              onAnswer={async (answer, wasFreeform) => {
                await writes.answer.mutateAsync({ sessionId, requestId: q.requestId, answer, wasFreeform });
              }}
            />
          ))}
          <WaitingApprovals approvals={waiting} />
          <ErrorNote error={sendError} title="The message was not sent" />
          {status === 'interrupted' && (
            <div className="chat-resume" role="region" aria-label="Interrupted session">
              <p>
                <strong>This session was interrupted</strong>
                {(sessionStatus.data?.session?.statusReason ?? info?.statusReason) && (
                  <span className="muted"> ({sessionStatus.data?.session?.statusReason ?? info?.statusReason})</span>
                )}
                . Resume it to carry on where it left off.
              </p>
              {mayOperate && (
                <button type="button" className="primary" disabled={control !== undefined} onClick={() => void act('resume')}>
                  <Icon name="resume" /> {control === 'resuming' ? 'Resuming…' : 'Resume'}
                </button>
              )}
            </div>
          )}
          <SessionPause sessionId={sessionId} live={status === 'running' || status === 'idle' || status === 'active'} mayAct={mayOperate} />
          <ErrorNote error={controlError?.error} title={controlError?.action === 'resume' ? 'The session did not resume' : 'The turn was not stopped'} />
          {status === 'running' && mayOperate && <SteerBox targets={steerTargets} onSteer={steer} />}
          {!mayOperate && <p className="muted read-only-note">Read only: your role may not message, steer, pause or stop sessions.</p>}
          {mayOperate && (
            <Composer
              disabled={!acceptsMessages(status)}
              locked={!acceptsMessages(status) && status !== 'running'}
              busy={sending}
              hint={composerHint(status)}
              actions={
                status === 'running' && (
                  <button type="button" disabled={control !== undefined} onClick={() => void act('stop')}>
                    <Icon name="stop" /> {control === 'stopping' ? 'Stopping…' : 'Stop'}
                  </button>
                )
              }
              onSend={send}
            />
          )}
        </div>

        <aside className="chat-side" aria-label="Session settings">
          <div className="field">
            <span className="field-label">Model</span>
            <p>{info?.model ?? '…'}</p>
          </div>
          <section className="session-model-calls" aria-labelledby="session-model-calls-title">
            <h3 id="session-model-calls-title">Model calls</h3>
            <ModelRouteNote />
            <ModelCallList view={modelCalls} title="Model calls of the session" empty={recorded ? 'No model call yet.' : ''} />
          </section>
          {info && <SessionSetup tools={sessionToolsOf(info.config)} agentId={agentId} />}
          {info && <SessionPolicyPanel config={info.config} budget={info.budget ?? undefined} />}
          {info && agentId && (
            <>
              <ChoiceList
                legend="Sub-Agents"
                choices={subAgentChoices({
                  ownAgentId: agentId,
                  team: agent?.subAgents ?? [],
                  selected: team,
                  eligible: eligible.data?.eligibleSubAgents ?? [],
                  problems: agent?.subAgentProblems ?? [],
                  known,
                })}
                selected={team}
                onChange={(next) => void changeTeam(next)}
                empty="No other agent can be a sub-agent."
                readOnly={!mayOperate}
              />
              {teamSaved && (
                <p className="muted small" role="status">
                  {teamSaved}
                </p>
              )}
              <ErrorNote error={teamError} title="The sub-agents were not changed" />
            </>
          )}
          <ErrorNote error={eligible.error} title="The eligible sub-agents could not be loaded" />
        </aside>
      </div>
      <SessionChanges sessionId={sessionId} runs={runs} version={conversation.lastPosition} live={working} />
    </section>
  );
}

/** What the composer says when the session takes no message now, and what to do about it. */
function composerHint(status: string): string | undefined {
  switch (status) {
    case 'active':
    case 'idle':
      return undefined;
    case 'running':
      return 'The agent is working: steer it above, send when it is done, or Stop the turn.';
    case 'starting':
      return 'The session is starting; wait a moment.';
    case 'interrupted':
      return 'The session was interrupted: Resume it above, then write.';
    case 'destroyed':
    case 'failed':
      return `The session is ${status}; it takes no messages. Start a new session from Sessions.`;
    default:
      return `The session is ${status}; it takes no messages.`;
  }
}

import { useEffect, useMemo, useState } from 'react';
import { ApiError, request, subscribe } from '../api/client';
import { useCoalesced, useLoad } from '../api/hooks';
import { linkHandler } from '../app/router';
import { ChoiceList } from '../ui/ChoiceList';
import { ErrorNote } from '../ui/ErrorNote';
import { Composer, ConversationView, QuestionCard, SessionSetup } from './ChatParts';
import { acceptsMessages, conversationOf, type SessionEventLike } from './conversation';
import {
  AnswerUserInputMutation,
  ChangeSessionSubAgentsMutation,
  ChatSessionQuery,
  EligibleSubAgentsQuery,
  PendingUserInputQuery,
  SendMessageMutation,
  SessionEventsSubscription,
} from './operations';
import { statusTone } from './session-list';
import { subAgentChoices } from './team-choices';
import { sessionToolsOf } from './tool-choices';

/** The events that change what the side panel or the question cards show: reload those then. */
const RELOADS_SESSION = /^session\.(sub_agents_changed|resumed|interrupted|destroyed|start_failed|resume_failed)$/;
const RELOADS_QUESTIONS = /^user_input\./;

/** One session's conversation, live from its event stream (replayed from the start, then live). */
export function ChatPage({ sessionId }: { sessionId: string }) {
  const session = useLoad(() => request(ChatSessionQuery, { id: sessionId }), `chat:${sessionId}`);
  const agentId = session.data?.session?.agentId ?? undefined;
  const eligible = useLoad(() => request(EligibleSubAgentsQuery, { exclude: agentId }), `eligible:${agentId ?? ''}`);
  const questions = useLoad(() => request(PendingUserInputQuery, { sessionId }), `questions:${sessionId}`);
  const [events, setEvents] = useState<SessionEventLike[]>([]);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<ApiError | undefined>();
  const [teamError, setTeamError] = useState<ApiError | undefined>();
  const [teamSaved, setTeamSaved] = useState<string | undefined>();
  // A toggle shows at once; the session's next load (after the save) is the truth again.
  const [pendingTeam, setPendingTeam] = useState<{ for: unknown; subAgents: string[] } | undefined>();
  const reloadSession = useCoalesced(session.reload, 200);
  const reloadQuestions = useCoalesced(questions.reload, 100);

  useEffect(() => {
    // The page is keyed by the session id (App), so its events start empty for each session.
    // graphql-ws re-subscribes with the same variables after a reconnect: the replay is deduplicated by
    // stream position, so nothing shows twice and nothing committed meanwhile is missed.
    return subscribe(SessionEventsSubscription, { sessionId, after: 0 }, ({ sessionEvents: event }) => {
      setEvents((current) => (current.length > 0 && event.streamPosition <= current[current.length - 1].streamPosition ? current : [...current, event]));
      if (RELOADS_SESSION.test(event.type)) reloadSession();
      if (RELOADS_QUESTIONS.test(event.type)) reloadQuestions();
    });
  }, [sessionId, reloadSession, reloadQuestions]);

  const conversation = useMemo(() => conversationOf(events), [events]);
  const agents = useMemo(() => session.data?.agents ?? [], [session.data]);
  const known = useMemo(() => new Map(agents.map((a) => [a.id, a])), [agents]);
  const info = session.data?.session;
  const agent = agentId ? known.get(agentId) : undefined;
  const status = events.length > 0 ? conversation.status : (info?.status ?? 'starting');
  const team = pendingTeam && pendingTeam.for === session.data ? pendingTeam.subAgents : (info?.subAgents ?? []);
  const working = status === 'running' || status === 'starting';

  const send = async (prompt: string) => {
    setSending(true);
    setSendError(undefined);
    try {
      await request(SendMessageMutation, { sessionId, prompt });
      return true;
    } catch (error) {
      setSendError(error instanceof ApiError ? error : new ApiError(String(error), 'error', 0));
      return false;
    } finally {
      setSending(false);
    }
  };

  const changeTeam = async (next: string[]) => {
    setPendingTeam({ for: session.data, subAgents: next });
    setTeamError(undefined);
    setTeamSaved(undefined);
    try {
      await request(ChangeSessionSubAgentsMutation, { sessionId, subAgents: next });
      setTeamSaved('Saved: the session uses them from its next resume.');
    } catch (error) {
      setPendingTeam(undefined);
      setTeamError(error instanceof ApiError ? error : new ApiError(String(error), 'error', 0));
    } finally {
      session.reload();
    }
  };

  if (session.data && !info) {
    return (
      <section className="page">
        <h1>Session not found</h1>
        <p>
          There is no session <code>{sessionId}</code>.{' '}
          <a href="/sessions" onClick={linkHandler('/sessions')}>
            Back to the sessions
          </a>
          .
        </p>
      </section>
    );
  }

  return (
    <section className="page chat-page" aria-labelledby="chat-title">
      <div className="page-head">
        <div>
          <p className="breadcrumb">
            <a href="/sessions" onClick={linkHandler('/sessions')}>
              Sessions
            </a>{' '}
            /
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

      <div className="chat-layout">
        <div className="chat-main">
          {events.length === 0 && <p className="muted">Loading the conversation…</p>}
          <ConversationView items={conversation.items} working={working} />
          <ErrorNote error={questions.error} title="The pending questions could not be loaded" />
          {(questions.data?.pendingUserInput ?? []).map((q) => (
            <QuestionCard
              key={q.requestId}
              question={q}
              onAnswer={async (answer, wasFreeform) => {
                await request(AnswerUserInputMutation, { sessionId, requestId: q.requestId, answer, wasFreeform });
                questions.reload();
              }}
            />
          ))}
          <ErrorNote error={sendError} title="The message was not sent" />
          <Composer
            disabled={!acceptsMessages(status)}
            busy={sending}
            hint={
              acceptsMessages(status)
                ? undefined
                : status === 'running'
                  ? 'The agent is working; send when it is done.'
                  : `The session is ${status}; it takes no messages.`
            }
            onSend={send}
          />
        </div>

        <aside className="chat-side" aria-label="Session settings">
          <div className="field">
            <span className="field-label">Model</span>
            <p>{info?.model ?? '…'}</p>
          </div>
          {info && <SessionSetup tools={sessionToolsOf(info.config)} agentId={agentId} />}
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
    </section>
  );
}

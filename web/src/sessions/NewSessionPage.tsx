import { useMemo, useState } from 'react';
import { useMay, useMe } from '../api/me';
import { type ApiError, request } from '../api/client';
import { asApiError } from '../api/mutation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ChoiceList } from '../ui/ChoiceList';
import { ErrorNote } from '../ui/ErrorNote';
import { Composer, ConversationView, teamProblemsOf } from './ChatParts';
import type { TeamProblem } from './conversation';
import { useCreateSession, useSendMessage } from './mutations';
import { EligibleSubAgentsQuery, NewSessionQuery } from './operations';
import { subAgentChoices } from './team-choices';
import { builtinToolChoices, defaultBuiltinTools, mcpServerChoices, sessionToolOverrides } from './tool-choices';
import { SessionSettingsFields } from './SessionSettingsFields';
import { budgetOf, policyOf, type SessionSettingsDraft, settingsOf, workspaceOf } from '../session-settings';

/** What the person chose on this page for the agent in `for`. */
interface Choices {
  for: string;
  model: string;
  subAgents: string[];
  /** Built-in tools checked. */
  tools: string[];
  mcpServers: string[];
  /** Delegation, permission policy and budget: the agent's defaults to start with. */
  settings: SessionSettingsDraft;
}

interface Failure {
  prompt: string;
  error: ApiError;
  problems: TeamProblem[];
  /** Set when the session was created but the prompt was not taken. */
  sessionId?: string;
}

/**
 * Start a session as a library agent (FR-3). Until the first message the choices live in the page; the
 * first message creates the session with them, sends the prompt and opens the chat.
 */
export function NewSessionPage() {
  const mayOperate = useMay('operate');
  const me = useMe();
  if (!mayOperate) {
    return (
      <section className="page" aria-labelledby="new-session-title">
        <h1 id="new-session-title">New session</h1>
        {me.data && <p>Your role ({me.data.me.role}) may not start sessions: ask an operator or an admin.</p>}
        <ErrorNote error={me.error} title="Who you are could not be read" />
      </section>
    );
  }
  return <NewSessionForm />;
}

function NewSessionForm() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [agentId, setAgentId] = useState(() => searchParams.get('agent') ?? '');
  const library = useQuery({ queryKey: ['sessions', 'new'], queryFn: () => request(NewSessionQuery) });
  const eligible = useQuery({
    queryKey: ['agents', 'eligible', agentId],
    queryFn: () => request(EligibleSubAgentsQuery, { exclude: agentId || undefined }),
    placeholderData: keepPreviousData,
  });
  const agents = useMemo(() => library.data?.agents ?? [], [library.data]);
  const known = useMemo(() => new Map(agents.map((a) => [a.id, a])), [agents]);
  const agent = known.get(agentId);

  const knownTools = useMemo(() => library.data?.knownBuiltinTools ?? [], [library.data]);
  const agentTools = agent?.tools ?? { builtin: [], excludedBuiltin: [] };

  // The page's choices for the agent picked, starting from the agent's own; reset when another agent is picked.
  const [choices, setChoices] = useState<Choices | undefined>();
  const current: Choices =
    choices?.for === agentId
      ? choices
      : {
          for: agentId,
          model: agent?.model ?? '',
          subAgents: [...(agent?.subAgents ?? [])],
          tools: defaultBuiltinTools(knownTools, agentTools),
          mcpServers: [...(agent?.mcpServers ?? [])],
          settings: settingsOf(agent, 'resolved'),
        };
  const budget = budgetOf(current.settings.budget);
  const budgetProblem = Object.keys(budget.problems).length > 0;
  const kindOrder = library.data?.sessionOptions.permissionKinds.map((k) => k.kind);
  const writes = { create: useCreateSession(), send: useSendMessage() };
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<Failure | undefined>();

  const pick = (id: string) => {
    setAgentId(id);
    setFailure(undefined);
    void navigate(id ? `/sessions/new?agent=${encodeURIComponent(id)}` : '/sessions/new', { replace: true });
  };

  const send = async (prompt: string): Promise<boolean> => {
    if (!agent) return false;
    setSending(true);
    setFailure(undefined);
    let sessionId: string | undefined;
    try {
      const model = current.model.trim();
      const workspace = workspaceOf(current.settings.workspace);
      const { createSession } = await writes.create.mutateAsync({
        input: {
          agentId: agent.id,
          subAgents: current.subAgents,
          ...(model && model !== agent.model ? { model } : {}),
          // What the page shows is what is sent: the agent's defaults as the person left them.
          delegation: current.settings.delegation ?? false,
          permissionPolicy: policyOf(current.settings, kindOrder),
          ...(budget.budget ? { budget: budget.budget } : {}),
          ...(workspace ? { workspace } : {}),
          ...sessionToolOverrides({
            known: knownTools,
            tools: agent.tools,
            agentMcpServers: agent.mcpServers,
            checkedTools: current.tools,
            checkedMcpServers: current.mcpServers,
          }),
        },
      });
      sessionId = createSession.sessionId;
      await writes.send.mutateAsync({ sessionId, prompt });
      void navigate(`/sessions/${sessionId}`);
      return true;
    } catch (error) {
      const apiError = asApiError(error);
      setFailure({ prompt, error: apiError, problems: teamProblemsOf(apiError), sessionId });
      setSending(false);
      return false;
    }
  };

  const subAgentList = subAgentChoices({
    ownAgentId: agent?.id,
    team: agent?.subAgents ?? [],
    selected: current.subAgents,
    eligible: eligible.data?.eligibleSubAgents ?? [],
    problems: agent?.subAgentProblems ?? [],
    known,
  });

  return (
    <section className="page chat-page" aria-labelledby="new-session-title">
      <div className="page-head">
        <div>
          <p className="breadcrumb">
            <Link to="/sessions">Sessions</Link> /
          </p>
          <h1 id="new-session-title">New session</h1>
          <p className="muted">Pick an agent, choose its team for this session, and send the first message: that starts the session.</p>
        </div>
      </div>
      <ErrorNote error={library.error} title="The agents could not be loaded" />

      <div className="chat-layout">
        <div className="chat-main">
          <div className="field">
            <label htmlFor="session-agent">Agent</label>
            <select id="session-agent" value={agentId} onChange={(e) => pick(e.target.value)} disabled={sending}>
              <option value="">Choose an agent…</option>
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.icon ? `${a.icon} ` : ''}
                  {a.name} ({a.id})
                </option>
              ))}
            </select>
            {library.data && agents.length === 0 && (
              <p className="muted small">
                The library is empty. <Link to="/agents/new">Create an agent</Link> first.
              </p>
            )}
            {agent?.description && <p className="muted small">{agent.description}</p>}
          </div>

          {failure && (
            <ConversationView
              items={[
                { kind: 'user', key: 'prompt', text: failure.prompt, at: '' },
                {
                  kind: 'error',
                  key: 'error',
                  action: failure.sessionId ? 'message' : 'start',
                  text: failure.error.message,
                  problems: failure.problems,
                },
              ]}
              working={false}
            />
          )}
          {failure?.sessionId && (
            <p>
              The session was created: <Link to={`/sessions/${failure.sessionId}`}>open it</Link>.
            </p>
          )}

          <Composer
            disabled={!agent || budgetProblem}
            busy={sending}
            hint={
              !agent
                ? 'Pick an agent first'
                : budgetProblem
                  ? 'Fix the budget first: each limit is a positive whole number'
                  : `Starts a session as ${agent.name}`
            }
            onSend={send}
          />
        </div>

        {agent && (
          <aside className="chat-side" aria-label="Session settings">
            <div className="field">
              <label htmlFor="session-model">Model</label>
              <input
                id="session-model"
                value={current.model}
                placeholder="The service's default"
                onChange={(e) => setChoices({ ...current, model: e.target.value })}
                disabled={sending}
              />
            </div>
            <ChoiceList
              legend="Tools"
              compact
              choices={builtinToolChoices(knownTools, agent.tools)}
              selected={current.tools}
              onChange={(next) => setChoices({ ...current, tools: next })}
              empty="No built-in tools are known."
            />
            <ChoiceList
              legend="MCP servers"
              choices={mcpServerChoices(library.data?.mcpServers.servers ?? [], current.mcpServers)}
              selected={current.mcpServers}
              onChange={(next) => setChoices({ ...current, mcpServers: next })}
              empty={library.data?.mcpServers.problem ?? 'No MCP servers are configured (SWITCHBOARD_MCP_CONFIG).'}
            />
            <p className="muted small">
              Checked to start with: the agent&apos;s own settings. <Link to={`/agents/${agent.id}`}>Change them in its editor</Link>.
            </p>
            <ErrorNote error={eligible.error} title="The eligible sub-agents could not be loaded" />
            <ChoiceList
              legend="Sub-Agents"
              choices={subAgentList}
              selected={current.subAgents}
              onChange={(next) => setChoices({ ...current, subAgents: next })}
              empty="No other agent can be a sub-agent."
            />
            <SessionSettingsFields
              draft={current.settings}
              onChange={(settings) => setChoices({ ...current, settings })}
              kindOptions={library.data?.sessionOptions.permissionKinds}
              mode="session"
              hasSubAgents={current.subAgents.length > 0}
              toolSuggestions={[...(library.data?.sessionOptions.delegationTools ?? []), ...knownTools]}
              repositories={library.data?.sessionOptions.workspaceRepositories}
              disabled={sending}
            />
          </aside>
        )}
      </div>
    </section>
  );
}

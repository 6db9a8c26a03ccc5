import { createContext, memo, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { type ApiError, request } from '../api/client';
import { asApiError } from '../api/mutation';
import { Link } from 'react-router';
import { ErrorNote } from '../ui/ErrorNote';
import { Icon, type IconName } from '../ui/icons';
import { Markdown } from '../ui/Markdown';
import { ModelCallCard, spendCostText, type ModelCallRow } from '../model-calls';
import { useMeasuredWindow } from '../ui/measured-window';
import {
  argumentsLine,
  type ConversationItem,
  duration,
  type PermissionStep,
  type RunCard,
  type SteerStep,
  type SubAgentStep,
  type TeamProblem,
  type ToolStep,
} from './conversation';
import { RunCardQuery } from './operations';
import type { SessionTools } from './tool-choices';

// The pieces the new-session page and the chat page share: the conversation, the FR-5 error bubble,
// a question card, the prompt box and the agent's setup beside it.

/** What a page says of the conversation before the items it has: whether there is some, and how to load it. */
export interface EarlierHistory {
  has: boolean;
  loading: boolean;
  load: () => void;
}

/** A first guess of an item's height in px, until it is rendered and measured. */
const ESTIMATED_ITEM_HEIGHT = 60;

/**
 * The conversation, windowed: only the items in and around the scrolled view are in the DOM (a session of
 * thousands of events stays a few hundred nodes), the view follows the newest item while it is at the
 * end, and scrolling near the top loads the earlier history (or the button does).
 */
export function ConversationView({ items, working, earlier }: { items: readonly ConversationItem[]; working: boolean; earlier?: EarlierHistory }) {
  const scroller = useRef<HTMLDivElement>(null);
  const keys = useMemo(() => items.map((item) => item.key), [items]);
  const shown = useMeasuredWindow(scroller, keys, ESTIMATED_ITEM_HEIGHT, true);
  const loadEarlier = earlier?.has && !earlier.loading && shown.nearStart ? earlier.load : undefined;
  useEffect(() => loadEarlier?.(), [loadEarlier]);
  return (
    <>
      <div ref={scroller} className="conversation-scroll" role="region" aria-label="Conversation history" tabIndex={0}>
        {earlier?.has && (
          <button type="button" className="load-earlier" disabled={earlier.loading} onClick={earlier.load}>
            {earlier.loading ? 'Loading earlier messages…' : 'Load earlier messages'}
          </button>
        )}
        <ol className="conversation" aria-label="Conversation" style={{ paddingTop: shown.above, paddingBottom: shown.below }}>
          {items.slice(shown.first, shown.end).map((item) => (
            <li key={item.key} ref={shown.measure} data-window-key={item.key} className={`turn turn-${item.kind}`}>
              <Item item={item} />
            </li>
          ))}
        </ol>
      </div>
      {working && (
        <p className="turn-working" role="status">
          <span className="working-dot" aria-hidden="true" /> Working…
        </p>
      )}
    </>
  );
}

/**
 * An answer's markdown, parsed again only when its text changes: the conversation is folded anew on every
 * event (a streamed delta included), and the items in view re-render with it.
 */
const AnswerMarkdown = memo(function AnswerMarkdown({ text }: { text: string }) {
  return <Markdown text={text} />;
});

function Item({ item }: { item: ConversationItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="bubble user" aria-label="You">
          {item.text}
        </div>
      );
    case 'assistant':
      return (
        <div className="bubble assistant" aria-label="Assistant" aria-busy={item.streaming || undefined}>
          <AnswerMarkdown text={item.text} />
        </div>
      );
    case 'tool':
      return <ToolStepView step={item} />;
    case 'permission':
      return <PermissionStepView step={item} />;
    case 'subagent':
      return <SubAgentStepView step={item} />;
    case 'run':
      return <RunCardView card={item} />;
    case 'steer':
      return <SteerStepView step={item} />;
    case 'question':
      return (
        <div className="step question-step">
          <span className="step-kind">
            <Icon name="question" /> Question{item.agent ? ` from ${item.agent}` : ''}
          </span>{' '}
          {item.question}
          {item.outcome === 'answered' ? (
            <div className="muted">Answered: {item.answer}</div>
          ) : item.outcome === 'pending' ? (
            <div className="muted">Waiting for your answer</div>
          ) : (
            <div className="muted">{item.outcome.replace('_', ' ')}</div>
          )}
        </div>
      );
    case 'error':
      return <ErrorBubble text={item.text} problems={item.problems} action={item.action} />;
    case 'notice':
      return (
        <p className="chat-notice muted">
          {item.text}
          {item.runs && (
            <>
              {' '}
              {item.runsText}{' '}
              {item.runs.map((run, i) => (
                <span key={run.runId}>
                  {i > 0 && ', '}
                  <Link to={`/runs/${run.runId}`}>
                    {run.agentId ?? 'run'} ({run.runId.slice(0, 8)})
                  </Link>
                </span>
              ))}
            </>
          )}
        </p>
      );
  }
}

const STATUS_LABEL: Record<string, string> = {
  running: 'running',
  starting: 'starting',
  succeeded: 'done',
  failed: 'failed',
  denied: 'refused',
  refused: 'refused',
  completed: 'done',
  stopped: 'stopped',
  interrupted: 'interrupted',
};

function StepHead({ icon, title, status, latency }: { icon: IconName; title: ReactNode; status: string; latency?: number }) {
  return (
    <span className="step-head">
      <Icon name={icon} /> <span className="step-title">{title}</span> <span className={`badge step-${status}`}>{STATUS_LABEL[status] ?? status}</span>
      {latency !== undefined && <span className="muted small"> {duration(latency)}</span>}
    </span>
  );
}

function Json({ label, value }: { label: string; value: unknown }) {
  if (value === undefined) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <pre className="step-json">{typeof value === 'string' ? value : JSON.stringify(value, null, 2)}</pre>
      </dd>
    </>
  );
}

function ToolStepView({ step }: { step: ToolStep }) {
  return (
    <details className={`step tool-step status-${step.status}`}>
      <summary>
        <StepHead
          icon="tool"
          title={
            <>
              {step.agent && <span className="step-agent">{step.agent} · </span>}
              <code>{step.toolName}</code> <span className="muted small">{argumentsLine(step.arguments, 80)}</span>
            </>
          }
          status={step.status}
          latency={step.latencyMs}
        />
        {step.status === 'denied' && step.reason && <span className="step-reason problem-text">Refused: {step.reason}</span>}
      </summary>
      <dl className="step-details">
        <Json label="Arguments" value={step.arguments} />
        <Json label="Result" value={step.result} />
        {step.reason && <Json label="Reason" value={step.reason} />}
      </dl>
    </details>
  );
}

function PermissionStepView({ step }: { step: PermissionStep }) {
  const status = step.approved ? 'succeeded' : 'denied';
  return (
    <details className={`step permission-step status-${status}`}>
      <summary>
        <StepHead
          icon="permission"
          title={
            <>
              {step.agent && <span className="step-agent">{step.agent} · </span>}
              Permission <code>{step.permission}</code>
              {step.toolName && (
                <>
                  {' '}
                  for <code>{step.toolName}</code>
                </>
              )}{' '}
              {step.approved ? 'approved' : 'denied'}
              {step.automatic && <span className="muted small"> (automatic: one of the session&apos;s own tools)</span>}
            </>
          }
          status={status}
          latency={step.latencyMs}
        />
        {!step.approved && step.reason && <span className="step-reason problem-text">{step.reason}</span>}
      </summary>
      <dl className="step-details">
        <Json label="Request" value={step.request} />
        {step.reason && <Json label="Reason" value={step.reason} />}
      </dl>
    </details>
  );
}

/** The session's model calls, loaded by the chat page: a sub-agent's step shows the ones it made. */
export const SubAgentModelCalls = createContext<readonly ModelCallRow[]>([]);

function SubAgentStepView({ step }: { step: SubAgentStep }) {
  const sessionCalls = useContext(SubAgentModelCalls);
  const calls = useMemo(
    () => (step.childSessionId ? sessionCalls.filter((call) => call.subagentId === step.childSessionId) : []),
    [sessionCalls, step.childSessionId],
  );
  return (
    <details className={`step subagent-step status-${step.status}`} open={step.status === 'running' || undefined}>
      <summary>
        <StepHead
          icon="team"
          title={
            <>
              Sub-agent <strong>{step.displayName ?? step.agentName}</strong> <span className="muted small">({step.agentName})</span>
            </>
          }
          status={step.status}
          latency={step.durationMs}
        />
        {step.totalToolCalls !== undefined && (
          <span className="muted small">
            {' '}
            · {step.totalToolCalls} tool call{step.totalToolCalls === 1 ? '' : 's'}
          </span>
        )}
      </summary>
      <dl className="step-details">
        {step.prompt && <Json label="Task" value={step.prompt} />}
        {step.answer && (
          <>
            <dt>Answer</dt>
            <dd>
              <AnswerMarkdown text={step.answer} />
            </dd>
          </>
        )}
        {step.error && <Json label="Error" value={step.error} />}
      </dl>
      {calls.length > 0 && (
        <ol className="substeps" aria-label={`Model calls of ${step.agentName}`}>
          {calls.map((call) => (
            <li key={call.callId}>
              <ModelCallCard call={call} />
            </li>
          ))}
        </ol>
      )}
      {step.steps.length > 0 && (
        <ol className="substeps" aria-label={`Steps of ${step.agentName}`}>
          {step.steps.map((s) => (
            <li key={s.key}>
              {s.kind === 'tool' ? <ToolStepView step={s} /> : s.kind === 'steer' ? <SteerStepView step={s} /> : <PermissionStepView step={s} />}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

/** A steer where it landed: the agent's next model request carried it (or the CLI did not take it). */
export function SteerStepView({ step }: { step: SteerStep }) {
  return (
    <div className="step steer-step" role="note" aria-label={`Steered ${step.agentName}`}>
      <span className="step-kind">
        <Icon name="composable" /> Steered {step.agentName}
      </span>{' '}
      <span className="muted small">by {step.by}</span>
      <div className="steer-text">{step.text}</div>
      {step.failed && <div className="steer-failed small">Not delivered: {step.failed}</div>}
    </div>
  );
}

const RUN_STEP_STATUS: Record<RunCard['status'], string> = {
  starting: 'running',
  running: 'running',
  completed: 'succeeded',
  failed: 'failed',
  stopped: 'denied',
  interrupted: 'denied',
  refused: 'denied',
};

/**
 * A delegation as the run it started: the agent, its task, status, time and tokens, linked to the run
 * page. Tokens are the run's own figure (this run and the runs it started), asked again as its status moves.
 */
function RunCardView({ card }: { card: RunCard }) {
  const run = useQuery({
    queryKey: ['runs', 'card', card.runId ?? '', card.status],
    queryFn: () => request(RunCardQuery, { id: card.runId ?? '' }),
    enabled: card.runId !== undefined,
  });
  const tokens = run.data?.run?.usage.subtree.totalTokens;
  const spend = run.data?.run?.modelCallSpend;
  const tone = RUN_STEP_STATUS[card.status];
  const heading = (
    <>
      {card.runId ? 'Run' : 'Delegating'}: <strong>{card.agentId ?? 'an agent'}</strong>
    </>
  );
  return (
    <article className={`step run-card status-${tone}`} aria-label={`Run of ${card.agentId ?? 'an agent'}`}>
      <div className="run-card-head">
        <Icon name="run" />
        <span className="step-title">{card.runId ? <Link to={`/runs/${card.runId}`}>{heading}</Link> : heading}</span>
        <span className={`badge step-${tone}`} data-testid="run-card-status">
          {STATUS_LABEL[card.status] ?? card.status}
        </span>
        {card.background && <span className="muted small">in the background</span>}
      </div>
      {card.task && <p className="run-card-task">{argumentsLine(card.task, 240)}</p>}
      <p className="muted small run-card-figures">
        {card.durationMs !== undefined ? duration(card.durationMs) : card.status === 'running' || card.status === 'starting' ? 'working…' : ''}
        {tokens !== undefined && tokens > 0 && <> · {tokens.toLocaleString()} tokens</>}
        {spend && spend.calls > 0 && <> · cost {spendCostText(spend)}</>}
      </p>
      {card.error && <p className="step-reason problem-text">{card.error}</p>}
    </article>
  );
}

/**
 * FR-5: a session that cannot start or resume because of its team: which agent, why, and where to fix
 * it (the agent's editor), or, before the first message, unselect it.
 */
export function ErrorBubble({ text, problems, action }: { text: string; problems: readonly TeamProblem[]; action: string }) {
  const title = action === 'start' ? 'The session could not start' : action === 'resume' ? 'The session could not resume' : 'Something went wrong';
  return (
    <div className="bubble error" role="alert">
      <strong>{title}</strong>
      {problems.length === 0 ? (
        <p>{text}</p>
      ) : (
        <ul className="team-problems">
          {problems.map((p) => (
            <li key={`${p.id}:${p.reason}`}>
              Sub-agent <strong>{p.id}</strong>: {p.reason}. <Link to={`/agents/${p.id}`}>Fix {p.id} in the agent editor</Link> or unselect it in
              Sub-Agents.
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The team problems of an API error (invalid_sub_agents), for the FR-5 bubble. */
export function teamProblemsOf(error: ApiError): TeamProblem[] {
  const problems = error.details?.problems;
  if (!Array.isArray(problems)) return [];
  return problems.flatMap((p: unknown) => {
    const { id, reason } = (p ?? {}) as { id?: unknown; reason?: unknown };
    return typeof id === 'string' && typeof reason === 'string' ? [{ id, reason }] : [];
  });
}

export interface PendingQuestion {
  requestId: string;
  question: string;
  choices: string[];
  allowFreeform: boolean;
  agentName?: string | null;
}

/** A question an agent waits on, answered in place: a choice, or free text when the agent allows it. */
export function QuestionCard({ question, onAnswer }: { question: PendingQuestion; onAnswer: (answer: string, freeform: boolean) => Promise<void> }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const titleId = `question-${question.requestId}`;
  const answer = async (value: string, freeform: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      await onAnswer(value, freeform);
    } catch (e) {
      setError(asApiError(e));
      setBusy(false);
    }
  };
  return (
    <section className="question-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="question-title">
        <Icon name="question" /> {question.agentName ? `${question.agentName} asks` : 'The agent asks'}: {question.question}
      </h2>
      {question.choices.length > 0 && (
        <div className="question-choices" role="group" aria-label="Answers">
          {question.choices.map((choice) => (
            <button key={choice} type="button" disabled={busy} onClick={() => void answer(choice, false)}>
              {choice}
            </button>
          ))}
        </div>
      )}
      {(question.allowFreeform || question.choices.length === 0) && (
        <form
          className="question-freeform"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) void answer(text.trim(), true);
          }}
        >
          <label htmlFor={`${titleId}-answer`}>Your answer</label>
          <input id={`${titleId}-answer`} value={text} onChange={(e) => setText(e.target.value)} disabled={busy} />
          <button type="submit" className="primary" disabled={busy || !text.trim()}>
            Answer
          </button>
        </form>
      )}
      <ErrorNote error={error} title="The answer was not taken" />
    </section>
  );
}

/**
 * The prompt box: Enter sends, Shift+Enter adds a line. `locked`: the session takes no message at all
 * (interrupted, over), so the box takes no typing either; `disabled` only holds Send (a turn is running:
 * the next message can be written meanwhile). `actions` sit beside Send (Stop, Resume).
 */
export function Composer({
  disabled,
  locked = false,
  busy,
  hint,
  actions,
  onSend,
}: {
  disabled: boolean;
  locked?: boolean;
  busy: boolean;
  hint?: string;
  actions?: ReactNode;
  onSend: (prompt: string) => Promise<boolean>;
}) {
  const [prompt, setPrompt] = useState('');
  const send = async () => {
    const text = prompt.trim();
    if (!text || disabled || busy) return;
    if (await onSend(text)) setPrompt('');
  };
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label htmlFor="chat-prompt" className="visually-hidden">
        Message
      </label>
      <textarea
        id="chat-prompt"
        rows={3}
        value={prompt}
        disabled={locked}
        placeholder={locked ? 'This session takes no messages now' : 'Message the agent…'}
        aria-describedby={hint ? 'chat-prompt-hint' : undefined}
        onChange={(e) => setPrompt(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <div className="composer-actions">
        {hint && (
          <span id="chat-prompt-hint" className="muted small">
            {hint}
          </span>
        )}
        {actions}
        <button type="submit" className="primary" disabled={disabled || locked || busy || !prompt.trim()}>
          {busy ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  );
}

/**
 * What a running session has: its built-in tools and MCP servers, as created (FR-3's Tools and MCP
 * selectors are choices for a new session; the CLI takes them at create and resume).
 */
export function SessionSetup({ tools, agentId }: { tools: SessionTools; agentId?: string }) {
  const href = agentId ? `/agents/${agentId}` : undefined;
  return (
    <div className="agent-setup">
      <div>
        <h3>Tools</h3>
        <p className="small" data-testid="session-tools">
          {tools.availableTools ? (tools.availableTools.length ? tools.availableTools.join(', ') : 'No built-in tools') : 'Every built-in tool'}
          {tools.excludedTools.length > 0 && <> · without {tools.excludedTools.join(', ')}</>}
        </p>
      </div>
      <div>
        <h3>MCP servers</h3>
        <p className="small" data-testid="session-mcp-servers">
          {tools.mcpServers.length ? tools.mcpServers.join(', ') : 'None'}
        </p>
      </div>
      {href && (
        <p className="muted small">
          Chosen when the session started. The agent&apos;s defaults: <Link to={href}>its editor</Link>.
        </p>
      )}
    </div>
  );
}

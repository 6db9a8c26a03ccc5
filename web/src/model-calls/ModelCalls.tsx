import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { request } from '../api/client';
import { ErrorNote } from '../ui/ErrorNote';
import { readableAnswer, readableRequest, type ReadableMessage, type ToolCallText } from './model-call-content';
import { costText, latencyText, spendText, statusOf, tokensText } from './model-call-figures';
import { ModelCallContentQuery } from './operations';
import { type ModelCallRow, type ModelCallsView, useModelRoute } from './use-model-calls';

/**
 * One line where model calls would be when the Copilot CLI does not hand them to Switchboard (a
 * protocol-2 CLI, an external CLI that already had sessions): there is no ledger, and this says why.
 * Renders nothing while routed (or before the service answered).
 */
export function ModelRouteNote() {
  const route = useModelRoute();
  const state = route.data?.modelRoute;
  if (!state || state.routed) return null;
  return (
    <p className="warning-note small model-route-note" role="note">
      Model calls are not recorded: {state.reason ?? 'the Copilot CLI does not route them through Switchboard'}.
    </p>
  );
}

/** False while the CLI does not route model calls (ModelRouteNote says why): a list then says nothing of being empty. */
export function useModelCallsRecorded(): boolean {
  return useModelRoute().data?.modelRoute.routed !== false;
}

/**
 * A list of model calls with their sum: each call's agent, model, tokens, cost, latency and status, and
 * its prompt and answer when opened. `title` names the list for assistive technology; `empty` is what
 * it says without calls (nothing when empty).
 */
export function ModelCallList({
  view,
  title,
  empty,
  actionsOf,
}: {
  view: ModelCallsView;
  title: string;
  empty: string;
  /** What a reader may do with a call (the run page: "Fork from here"). */
  actionsOf?: (call: ModelCallRow) => ReactNode;
}) {
  return (
    <div className="model-calls">
      {view.spend && (
        <p className="small model-calls-spend" data-testid="model-call-spend">
          {spendText(view.spend, view.calls.length)}
        </p>
      )}
      <ErrorNote error={view.error} title="The model calls could not be loaded" />
      {view.loading && <p className="muted small">Loading the model calls…</p>}
      {!view.loading && !view.error && view.calls.length === 0 && empty && <p className="muted small">{empty}</p>}
      {view.calls.length > 0 && (
        <ol className="model-call-list" aria-label={title}>
          {view.calls.map((call) => (
            <li key={call.callId}>
              <ModelCallCard call={call} actions={actionsOf?.(call)} />
            </li>
          ))}
        </ol>
      )}
      {view.hasMore && (
        <button type="button" className="link-button small" disabled={view.loadingMore} onClick={view.loadMore}>
          {view.loadingMore ? 'Loading…' : 'Show more model calls'}
        </button>
      )}
    </div>
  );
}

/** One call's figures; its prompt and answer are fetched only when the reader opens them. */
export function ModelCallCard({ call, actions }: { call: ModelCallRow; actions?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const status = statusOf(call.status);
  return (
    <article className={`step model-call status-${status.tone}`} aria-label={`Model call by ${call.agentName} to ${call.model}`}>
      <div className="model-call-head">
        <span className="step-agent">{call.agentName}</span> <code className="model-call-model">{call.model}</code>{' '}
        <span className={`badge step-${status.tone}`}>{status.label}</span>
        <span className="muted small"> {new Date(call.startedAt).toLocaleTimeString()}</span>
      </div>
      <p className="small model-call-figures">
        <span data-testid="model-call-tokens">{tokensText(call)}</span> · cost{' '}
        <span data-testid="model-call-cost">{costText(call.cost, call.currency)}</span>
      </p>
      <p className="muted small model-call-figures" data-testid="model-call-latency">
        {latencyText(call)}
        {call.finishReason && <> · finished: {call.finishReason}</>}
      </p>
      {call.error && <p className="problem-text small">{call.error}</p>}
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="small">Prompt and answer</summary>
        {open && <ModelCallContent callId={call.callId} inFlight={call.status === 'in_flight'} />}
      </details>
      {actions}
    </article>
  );
}

/** Messages longer than this show their start until "Show all" (the CLI's system prompt runs to pages). */
const CLIPPED_CHARS = 600;
/** A body that could not be read as messages is shown raw, up to this much. */
const RAW_CHARS = 20_000;

function ModelCallContent({ callId, inFlight }: { callId: string; inFlight: boolean }) {
  const content = useQuery({
    queryKey: ['model-calls', 'content', callId, inFlight],
    queryFn: () => request(ModelCallContentQuery, { id: callId }),
    staleTime: inFlight ? 0 : Infinity,
  });
  if (content.error) return <ErrorNote error={content.error} title="The prompt and answer could not be loaded" />;
  if (!content.data) return <p className="muted small">Loading the prompt and answer…</p>;
  const call = content.data.modelCall;
  if (!call) return <p className="muted small">This call is no longer in the ledger.</p>;
  const messages = readableRequest(call.request);
  const answer = readableAnswer(call.answer);
  return (
    <div className="model-call-content">
      <h4>Prompt</h4>
      {call.request === null || call.request === undefined ? (
        <p className="muted small">Not kept: the service keeps model calls&apos; metadata only (SWITCHBOARD_MODEL_CONTENT=metadata).</p>
      ) : messages ? (
        <>
          <ol className="model-messages" aria-label="Prompt messages">
            {messages.messages.map((message, i) => (
              <li key={i}>
                <MessageView message={message} />
              </li>
            ))}
          </ol>
          {messages.tools.length > 0 && <p className="muted small">Tools offered: {messages.tools.join(', ')}</p>}
        </>
      ) : (
        <pre className="step-json">{call.request.slice(0, RAW_CHARS)}</pre>
      )}
      {call.requestTruncated && <p className="muted small">The request was cut at the service&apos;s size limit (SWITCHBOARD_MODEL_CONTENT_MAX_BYTES).</p>}
      <h4>Answer</h4>
      {call.answer === null || call.answer === undefined ? (
        <p className="muted small">{inFlight ? 'The answer is still coming.' : 'No answer kept.'}</p>
      ) : answer ? (
        <div className="model-answer">
          {answer.text && <pre className="model-text">{answer.text}</pre>}
          <ToolCalls calls={answer.toolCalls} />
        </div>
      ) : (
        <pre className="step-json">{call.answer.slice(0, RAW_CHARS)}</pre>
      )}
      {call.answerTruncated && <p className="muted small">The answer was cut at the service&apos;s size limit.</p>}
    </div>
  );
}

function MessageView({ message }: { message: ReadableMessage }) {
  const [all, setAll] = useState(false);
  const long = message.text.length > CLIPPED_CHARS;
  return (
    <div className={`model-message role-${message.role}`}>
      <span className="model-message-role">{message.toolCallId ? `${message.role} (result)` : message.role}</span>
      {message.text && <pre className="model-text">{long && !all ? `${message.text.slice(0, CLIPPED_CHARS)}…` : message.text}</pre>}
      {long && (
        <button type="button" className="link-button small" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all (${message.text.length.toLocaleString('en-US')} characters)`}
        </button>
      )}
      <ToolCalls calls={message.toolCalls} />
    </div>
  );
}

function ToolCalls({ calls }: { calls: readonly ToolCallText[] }) {
  if (calls.length === 0) return null;
  return (
    <ul className="model-tool-calls small">
      {calls.map((call, i) => (
        <li key={i}>
          calls <code>{call.name}</code> <span className="muted">{call.arguments.length > 200 ? `${call.arguments.slice(0, 199)}…` : call.arguments}</span>
        </li>
      ))}
    </ul>
  );
}

import {
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  ATTR_GEN_AI_WORKFLOW_NAME,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW,
} from '@opentelemetry/semantic-conventions/incubating';
import { actorOfMetadata } from '../../common/actor';
import { type RecordedTrace, SpanIds, traceIdOf } from '../../common/trace-context';
import { ApprovalEvents } from '../../approvals/approval.events';
import { ChildSessionEvents } from '../../child-sessions/child-session.events';
import { RUN_STREAM_EVENT_TYPES, RunEvents } from '../../delegation/run.events';
import type { StoredEvent } from '../../event-store/event-store.types';
import { runIdOfThread, runThreadId, sessionIdOfStream } from '../../event-store/stream-ids';
import { ModelCallEvents } from '../../model-calls/model-call.events';
import { PauseEvents } from '../../pauses/pause.events';
import { SessionEvents } from '../../sessions/session.events';
import { RoutedRequestEvents } from '../../tool-dispatch/routed-request.events';

/**
 * issue 28: the pure part of the `trace-spans` projection. One event, with the rows it concerns (the
 * session contexts and spans `lookupsOf` names), becomes the changes to make: spans to open, spans to
 * change (end, attributes, span events), session contexts to keep. No database here, no clock, no
 * randomness: the same log folds into the same spans, ids included (`SpanIds`).
 */

export type AttributeValue = string | number | boolean | string[] | number[];
export type Attributes = Record<string, AttributeValue>;

export interface SpanEvent {
  name: string;
  time: string;
  attributes: Attributes;
}

export type SpanKind = 'internal' | 'client' | 'server';
export type SpanStatusCode = 'unset' | 'ok' | 'error';

/** A `trace_spans` row, its JSON columns parsed. */
export interface SpanRow {
  spanId: string;
  traceId: string;
  parentSpanId: string | null;
  name: string;
  kind: SpanKind;
  startTime: string;
  endTime: string | null;
  statusCode: SpanStatusCode;
  statusMessage: string | null;
  attributes: Attributes;
  events: SpanEvent[];
  openedPosition: number;
  endedPosition: number | null;
  exportedAt: string | null;
}

/** A `trace_session_contexts` row, `team` parsed. */
export interface SessionContext {
  sessionId: string;
  traceId: string | null;
  spanId: string | null;
  agentId: string | null;
  agentName: string | null;
  runId: string | null;
  team: string[] | null;
}

export type SpanChange =
  /** A new span (kept as it is when a row with its id exists). */
  | { kind: 'open'; span: SpanRow }
  /** The new content of an existing, unexported span. */
  | { kind: 'update'; span: SpanRow }
  /** The session's context as it is now. */
  | { kind: 'context'; context: SessionContext }
  /** What the event would have changed but cannot: the span is exported (final) or unknown. */
  | { kind: 'dropped'; spanId: string; reason: string };

/** The rows an event's mapping reads: looked up before `spanChangesOf`. */
export interface TraceState {
  context(sessionId: string): SessionContext | undefined;
  span(spanId: string): SpanRow | undefined;
}

export interface TraceMappingOptions {
  /** `SWITCHBOARD_TRACE_CONTENT`: prompts, answers, tool arguments and results on the spans. */
  content: boolean;
}

/** The event types the projection reads (CLI records by their stored `cli.<type>`). */
export const TRACE_EVENT_TYPES = [
  SessionEvents.created,
  SessionEvents.started,
  SessionEvents.resumed,
  SessionEvents.subAgentsChanged,
  SessionEvents.messageSent,
  SessionEvents.messageFailed,
  SessionEvents.interrupted,
  SessionEvents.destroyed,
  SessionEvents.steered,
  SessionEvents.abortRequested,
  'cli.session.idle',
  'cli.assistant.message',
  'cli.tool.execution_start',
  'cli.tool.execution_complete',
  ...RUN_STREAM_EVENT_TYPES,
  ChildSessionEvents.subagentStarted,
  ChildSessionEvents.subagentCompleted,
  ChildSessionEvents.subagentFailed,
  ModelCallEvents.started,
  ModelCallEvents.finished,
  ModelCallEvents.failed,
  ModelCallEvents.refused,
  ModelCallEvents.interrupted,
  RoutedRequestEvents.toolCallRouted,
  RoutedRequestEvents.toolCallDenied,
  RoutedRequestEvents.hookInvoked,
  RoutedRequestEvents.userInputRequested,
  RoutedRequestEvents.userInputAnswered,
  ApprovalEvents.asked,
  ApprovalEvents.decided,
  ApprovalEvents.expired,
  PauseEvents.paused,
  PauseEvents.unpaused,
] as const;

// ---- reading event data without trusting its shape (old events, other versions) ----

type Data = Record<string, unknown>;

function isRecord(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
function record(value: unknown): Data {
  return isRecord(value) ? value : {};
}
function recordedTraceOf(value: unknown): RecordedTrace | undefined {
  if (!isRecord(value)) return undefined;
  const traceId = str(value.traceId);
  const spanId = str(value.spanId);
  if (!traceId || !spanId) return undefined;
  const parentSpanId = str(value.parentSpanId);
  return parentSpanId ? { traceId, spanId, parentSpanId } : { traceId, spanId };
}
/** Attributes without the undefined ones. */
function attrs(values: Record<string, AttributeValue | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out;
}
function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
function addMs(iso: string, ms: number): string {
  const time = Date.parse(iso);
  return Number.isFinite(time) ? new Date(time + ms).toISOString() : iso;
}

/** GenAI semconv message JSON: one text part per message. */
function textMessages(role: string, text: string | undefined): string | undefined {
  return text === undefined ? undefined : JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
}

/** The request's chat messages (OpenAI chat shape) as GenAI semconv input messages; undefined when it is not that shape. */
export function inputMessagesOfRequest(request: string | undefined): string | undefined {
  if (!request) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(request);
  } catch {
    return undefined;
  }
  const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : undefined;
  if (!messages) return undefined;
  return JSON.stringify(
    messages.filter(isRecord).map((message) => {
      const parts: Data[] = [];
      const content = message.content;
      if (typeof content === 'string') parts.push({ type: 'text', content });
      else if (Array.isArray(content))
        for (const part of content.filter(isRecord)) if (typeof part.text === 'string') parts.push({ type: 'text', content: part.text });
      if (Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls.filter(isRecord)) {
          const fn = record(call.function);
          parts.push({ type: 'tool_call', id: call.id, name: fn.name, arguments: fn.arguments });
        }
      }
      if (message.role === 'tool') return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.tool_call_id, response: content }] };
      return { role: str(message.role) ?? 'user', parts };
    }),
  );
}

/** The answer (a JSON chat completion, or its SSE chunks) as GenAI semconv output messages. */
export function outputMessagesOfAnswer(answer: string | undefined, finishReason: string | undefined): string | undefined {
  if (!answer) return undefined;
  const bodies: Data[] = [];
  const lines = answer.trimStart().startsWith('{')
    ? [answer]
    : answer
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim());
  for (const line of lines) {
    if (line === '[DONE]') continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isRecord(parsed)) bodies.push(parsed);
    } catch {
      // a chunk cut by the size limit: the rest still says something
    }
  }
  let text = '';
  const calls = new Map<number, { id?: unknown; name: string; arguments: string }>();
  for (const body of bodies) {
    for (const choice of Array.isArray(body.choices) ? body.choices.filter(isRecord) : []) {
      const message = record(choice.message ?? choice.delta);
      if (typeof message.content === 'string') text += message.content;
      for (const call of Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : []) {
        const index = num(call.index) ?? calls.size;
        const fn = record(call.function);
        const known = calls.get(index) ?? { id: call.id, name: '', arguments: '' };
        if (call.id !== undefined) known.id = call.id;
        if (typeof fn.name === 'string') known.name += fn.name;
        if (typeof fn.arguments === 'string') known.arguments += fn.arguments;
        calls.set(index, known);
      }
    }
  }
  if (bodies.length === 0) return undefined;
  const parts: Data[] = [];
  if (text) parts.push({ type: 'text', content: text });
  for (const call of calls.values()) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
  return JSON.stringify([{ role: 'assistant', parts, ...(finishReason ? { finish_reason: finishReason } : {}) }]);
}

function responseModelOf(answer: string | undefined): string | undefined {
  return answer ? /"model"\s*:\s*"([^"]+)"/.exec(answer)?.[1] : undefined;
}

// ---- the mapping ----

/** The span a session's work nests under when nothing better is known: derived, so stable. */
function orphanTraceId(sessionId: string): string {
  return traceIdOf('session', sessionId);
}

interface Placement {
  traceId: string;
  parentSpanId: string | null;
}

/** Where work of `sessionId` goes: under its current span (turn or run), in its trace. */
function placeIn(context: SessionContext | undefined, sessionId: string): Placement {
  return { traceId: context?.traceId ?? orphanTraceId(sessionId), parentSpanId: context?.spanId ?? null };
}

function newSpan(event: StoredEvent, fields: Pick<SpanRow, 'spanId' | 'name' | 'kind' | 'attributes'> & Placement & { startTime?: string }): SpanRow {
  return {
    spanId: fields.spanId,
    traceId: fields.traceId,
    parentSpanId: fields.parentSpanId,
    name: fields.name,
    kind: fields.kind,
    startTime: fields.startTime ?? event.recordedAt,
    endTime: null,
    statusCode: 'unset',
    statusMessage: null,
    attributes: fields.attributes,
    events: [],
    openedPosition: event.globalPosition,
    endedPosition: null,
    exportedAt: null,
  };
}

function ended(span: SpanRow, event: StoredEvent, status: SpanStatusCode, message?: string): SpanRow {
  return { ...span, endTime: event.recordedAt, endedPosition: event.globalPosition, statusCode: status, statusMessage: message ?? null };
}

function emptyContext(sessionId: string): SessionContext {
  return { sessionId, traceId: null, spanId: null, agentId: null, agentName: null, runId: runIdOfThread(sessionId) ?? null, team: null };
}

class Changes {
  readonly list: SpanChange[] = [];
  constructor(private readonly state: TraceState) {}

  open(span: SpanRow): void {
    this.list.push({ kind: 'open', span });
  }

  /** Changes span `spanId` if it exists and is not exported yet; else says why not. */
  change(spanId: string | null | undefined, what: string, update: (span: SpanRow) => SpanRow, options: { onlyOpen?: boolean } = {}): void {
    if (!spanId) return;
    const span = this.state.span(spanId);
    if (!span) return void this.list.push({ kind: 'dropped', spanId, reason: `${what}: no such span` });
    if (span.exportedAt) return void this.list.push({ kind: 'dropped', spanId, reason: `${what}: the span was exported at ${span.exportedAt}` });
    if (options.onlyOpen && span.endTime) return;
    this.list.push({ kind: 'update', span: update(span) });
  }

  /** A span event on an open span (an ended one is on its way to the collector: it is not touched for an aside). */
  event(spanId: string | null | undefined, what: string, spanEvent: SpanEvent): void {
    this.change(spanId, what, (span) => ({ ...span, events: [...span.events, spanEvent] }), { onlyOpen: true });
  }

  context(context: SessionContext): void {
    this.list.push({ kind: 'context', context });
  }
}

/** The session an event on a session stream belongs to. */
function sessionOf(event: StoredEvent): string | undefined {
  return sessionIdOfStream(event.streamId);
}

/** The session ids whose contexts `spanChangesOf` reads for this event. */
export function sessionsNeeded(event: StoredEvent): string[] {
  const data = record(event.data);
  switch (event.type) {
    case RunEvents.started:
      return [str(data.threadId), str(data.parentThreadId), str(data.ownerThreadId)].filter((id): id is string => id !== undefined);
    case RunEvents.resumed:
    case RunEvents.budgetWarned: {
      const runId = str(data.runId);
      return runId ? [runThreadId(runId)] : [];
    }
    case ModelCallEvents.started:
    case ModelCallEvents.refused:
    case ApprovalEvents.asked:
      return str(data.sessionId) ? [String(data.sessionId)] : [];
    case PauseEvents.paused:
    case PauseEvents.unpaused: {
      const id = pausedSessionOf(data);
      return id ? [id] : [];
    }
    default: {
      const session = sessionOf(event);
      return session ? [session] : [];
    }
  }
}

function pausedSessionOf(data: Data): string | undefined {
  const runId = str(data.runId);
  return str(data.sessionId) ?? (runId ? runThreadId(runId) : undefined);
}

/** The span ids whose rows `spanChangesOf` reads, once the contexts are known. */
export function spansNeeded(event: StoredEvent, contexts: TraceState['context']): string[] {
  const data = record(event.data);
  const payload = record(data.payload);
  const session = sessionOf(event);
  const current = (id: string | undefined) => (id ? contexts(id)?.spanId : undefined) ?? undefined;
  const runId = str(data.runId);
  const epoch = num(data.epoch);
  const ids: Array<string | undefined> = [];
  switch (event.type) {
    case SessionEvents.messageSent:
    case SessionEvents.messageFailed:
    case SessionEvents.interrupted:
    case SessionEvents.destroyed:
    case SessionEvents.steered:
    case SessionEvents.abortRequested:
    case 'cli.session.idle':
    case 'cli.assistant.message':
      ids.push(current(session));
      break;
    case 'cli.tool.execution_complete':
      if (session && str(payload.toolCallId)) ids.push(SpanIds.tool(session, String(payload.toolCallId)));
      break;
    case RoutedRequestEvents.toolCallRouted:
    case RoutedRequestEvents.toolCallDenied:
      if (session && str(data.toolCallId)) ids.push(SpanIds.tool(session, String(data.toolCallId)));
      break;
    case RoutedRequestEvents.userInputAnswered:
      if (session && str(data.requestId)) ids.push(SpanIds.userInput(session, String(data.requestId)));
      break;
    case ChildSessionEvents.subagentCompleted:
    case ChildSessionEvents.subagentFailed:
      if (session && str(data.childSessionId)) ids.push(SpanIds.subagent(session, String(data.childSessionId)));
      break;
    case RunEvents.completed:
    case RunEvents.failed:
    case RunEvents.stopped:
    case RunEvents.interrupted:
      if (runId && epoch !== undefined) ids.push(SpanIds.run(runId, epoch));
      break;
    case RunEvents.resumed:
      if (runId && epoch !== undefined) ids.push(SpanIds.run(runId, epoch - 1));
      if (runId) ids.push(current(runThreadId(runId)));
      break;
    case RunEvents.budgetWarned:
      if (runId) ids.push(current(runThreadId(runId)));
      break;
    case ModelCallEvents.finished:
    case ModelCallEvents.failed:
    case ModelCallEvents.interrupted:
      if (str(data.callId)) ids.push(SpanIds.modelCall(String(data.callId)));
      break;
    case ApprovalEvents.decided:
    case ApprovalEvents.expired:
      if (str(data.approvalId)) ids.push(SpanIds.approval(String(data.approvalId)));
      break;
    case PauseEvents.paused:
    case PauseEvents.unpaused:
      ids.push(current(pausedSessionOf(data)));
      break;
  }
  return ids.filter((id): id is string => id !== undefined);
}

/** What one event changes in the spans and session contexts. Never throws on an old or odd event: it maps what it can. */
export function spanChangesOf(event: StoredEvent, state: TraceState, options: TraceMappingOptions): SpanChange[] {
  const changes = new Changes(state);
  const data = record(event.data);
  const session = sessionOf(event);
  const contextOf = (id: string) => state.context(id) ?? emptyContext(id);
  switch (event.type) {
    case SessionEvents.created: {
      if (!session) break;
      const config = record(data.config);
      const agentId = str(config.agentId);
      const context = contextOf(session);
      const subAgents = Array.isArray(config.subAgents) ? config.subAgents.filter((a): a is string => typeof a === 'string') : [];
      changes.context({
        ...context,
        // A run's thread is named by its run (run.started came first): keep the run's agent.
        agentId: context.agentId ?? agentId ?? 'main',
        // The agent's name as the session recorded it (older sessions: its id), as a run's span names its agent.
        agentName: context.agentName ?? str(config.agentName) ?? agentId ?? 'main',
        team: context.runId ? context.team : subAgents.length > 0 ? subAgents : null,
      });
      break;
    }
    case SessionEvents.started:
    case SessionEvents.resumed: {
      if (!session) break;
      const team = Array.isArray(data.teamAgents) ? data.teamAgents.filter(isRecord).flatMap((a) => (str(a.name) ? [String(a.name)] : [])) : [];
      const context = contextOf(session);
      if (team.length > 0 && !context.runId) changes.context({ ...context, team });
      break;
    }
    case SessionEvents.subAgentsChanged: {
      if (!session) break;
      const team = Array.isArray(data.subAgents) ? data.subAgents.filter((a): a is string => typeof a === 'string') : [];
      const context = contextOf(session);
      if (!context.runId) changes.context({ ...context, team: team.length > 0 ? team : null });
      break;
    }
    case SessionEvents.messageSent:
      messageSent(event, session, data, state, changes, options);
      break;
    case 'cli.session.idle': {
      if (!session || str(data.agentId)) break;
      const context = state.context(session);
      if (context && !context.runId) changes.change(context.spanId, 'turn end', (span) => ended(span, event, 'unset'), { onlyOpen: true });
      break;
    }
    case 'cli.assistant.message': {
      if (!session || str(data.agentId) || !options.content) break;
      const context = state.context(session);
      const content = str(record(data.payload).content);
      if (context && !context.runId && content) {
        changes.change(
          context.spanId,
          'turn answer',
          (span) => ({ ...span, attributes: { ...span.attributes, [ATTR_GEN_AI_OUTPUT_MESSAGES]: textMessages('assistant', content) ?? '' } }),
          {
            onlyOpen: true,
          },
        );
      }
      break;
    }
    case SessionEvents.messageFailed:
    case SessionEvents.interrupted:
    case SessionEvents.destroyed: {
      if (!session) break;
      const context = state.context(session);
      if (!context || context.runId) break;
      const message =
        event.type === SessionEvents.messageFailed
          ? (str(data.error) ?? 'message failed')
          : event.type === SessionEvents.interrupted
            ? `interrupted: ${str(data.reason) ?? 'unknown'}`
            : 'session destroyed';
      changes.change(context.spanId, 'turn error', (span) => ended(span, event, 'error', message), { onlyOpen: true });
      break;
    }
    case SessionEvents.steered:
    case SessionEvents.abortRequested: {
      if (!session) break;
      const target = str(data.subagentId) ? SpanIds.subagent(session, String(data.subagentId)) : state.context(session)?.spanId;
      changes.event(
        target,
        event.type,
        spanEvent(
          event,
          attrs({
            'switchboard.steer.target': str(data.target),
            'switchboard.steered_by': str(data.steeredBy),
            'switchboard.actor': actorOfMetadata(event.metadata).name,
          }),
        ),
      );
      break;
    }
    case 'cli.tool.execution_start':
      toolStarted(event, session, data, state, changes, options);
      break;
    case 'cli.tool.execution_complete': {
      const payload = record(data.payload);
      const toolCallId = str(payload.toolCallId);
      if (!session || !toolCallId) break;
      const success = payload.success !== false;
      const error = record(payload.error);
      const result = options.content ? textOf(record(payload.result).content ?? payload.result) : undefined;
      changes.change(SpanIds.tool(session, toolCallId), 'tool end', (span) => ({
        ...ended(span, event, success ? 'unset' : 'error', success ? undefined : (str(error.message) ?? 'tool failed')),
        attributes: attrs({ ...span.attributes, [ATTR_GEN_AI_TOOL_CALL_RESULT]: result }),
      }));
      break;
    }
    case RoutedRequestEvents.toolCallRouted:
    case RoutedRequestEvents.toolCallDenied: {
      const toolCallId = str(data.toolCallId);
      if (!session || !toolCallId) break;
      changes.change(SpanIds.tool(session, toolCallId), event.type, (span) => ({
        ...span,
        attributes: attrs({
          ...span.attributes,
          'switchboard.tool.routing': event.type === RoutedRequestEvents.toolCallDenied ? 'denied' : (str(data.outcome) ?? 'routed'),
          'switchboard.tool.routing.via': str(data.via),
          'switchboard.tool.routing.reason': str(data.reason),
        }),
      }));
      break;
    }
    case ChildSessionEvents.subagentStarted: {
      const childId = str(data.childSessionId);
      const toolCallId = str(data.toolCallId);
      if (!session || !childId) break;
      const place = placeIn(state.context(session), session);
      const agentName = str(data.agentName) ?? 'sub-agent';
      changes.open(
        newSpan(event, {
          spanId: SpanIds.subagent(session, childId),
          traceId: place.traceId,
          parentSpanId: toolCallId ? SpanIds.tool(session, toolCallId) : place.parentSpanId,
          name: `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${agentName}`,
          kind: 'internal',
          attributes: attrs({
            [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
            [ATTR_GEN_AI_AGENT_ID]: childId,
            [ATTR_GEN_AI_AGENT_NAME]: agentName,
            [ATTR_GEN_AI_CONVERSATION_ID]: session,
            [ATTR_GEN_AI_REQUEST_MODEL]: str(data.model),
            'switchboard.subagent.execution_mode': str(data.executionMode),
          }),
        }),
      );
      break;
    }
    case ChildSessionEvents.subagentCompleted:
    case ChildSessionEvents.subagentFailed: {
      const childId = str(data.childSessionId);
      if (!session) break;
      if (!childId) {
        changes.list.push({
          kind: 'dropped',
          spanId: `tool ${str(data.toolCallId) ?? '?'}`,
          reason: `${event.type} without childSessionId: its sub-agent span is unknown`,
        });
        break;
      }
      const failed = event.type === ChildSessionEvents.subagentFailed;
      changes.change(SpanIds.subagent(session, childId), event.type, (span) => ({
        ...ended(span, event, failed ? 'error' : 'unset', failed ? (str(data.error) ?? 'sub-agent failed') : undefined),
        attributes: attrs({
          ...span.attributes,
          'switchboard.subagent.total_tokens': num(data.totalTokens),
          'switchboard.subagent.total_tool_calls': num(data.totalToolCalls),
        }),
      }));
      break;
    }
    case RunEvents.started:
      runStarted(event, data, state, changes, options);
      break;
    case RunEvents.resumed:
      runResumed(event, data, state, changes, options);
      break;
    case RunEvents.completed:
    case RunEvents.failed:
    case RunEvents.stopped:
    case RunEvents.interrupted: {
      const runId = str(data.runId);
      const epoch = num(data.epoch);
      if (!runId || epoch === undefined) break;
      changes.change(SpanIds.run(runId, epoch), event.type, (span) => runEnded(span, event, data, options));
      break;
    }
    case RunEvents.budgetWarned: {
      const runId = str(data.runId);
      if (!runId) break;
      changes.event(
        state.context(runThreadId(runId))?.spanId,
        event.type,
        spanEvent(
          event,
          attrs({
            'switchboard.budget.limit': str(data.limit),
            'switchboard.budget.used': num(data.used),
            'switchboard.budget.allowed': num(data.allowed),
          }),
        ),
      );
      break;
    }
    case PauseEvents.paused:
    case PauseEvents.unpaused: {
      const sessionId = pausedSessionOf(data);
      if (!sessionId) break;
      changes.event(
        state.context(sessionId)?.spanId,
        event.type,
        spanEvent(
          event,
          attrs({
            'switchboard.pause.id': str(data.pauseId),
            'switchboard.pause.by': str(data.pausedBy) ?? str(data.unpausedBy),
            'switchboard.pause.reason': str(data.reason),
            'switchboard.pause.ms': num(data.pausedMs),
          }),
        ),
      );
      break;
    }
    case ModelCallEvents.started:
    case ModelCallEvents.refused:
      modelCallStarted(event, data, state, changes, options);
      break;
    case ModelCallEvents.finished:
    case ModelCallEvents.failed:
    case ModelCallEvents.interrupted: {
      const callId = str(data.callId);
      if (!callId) break;
      changes.change(SpanIds.modelCall(callId), event.type, (span) => modelCallEnded(span, event, data, options));
      break;
    }
    case ApprovalEvents.asked:
      approvalAsked(event, data, state, changes);
      break;
    case ApprovalEvents.decided:
    case ApprovalEvents.expired: {
      const approvalId = str(data.approvalId);
      if (!approvalId) break;
      const by = actorOfMetadata(event.metadata);
      const decided = event.type === ApprovalEvents.decided;
      changes.change(SpanIds.approval(approvalId), event.type, (span) => ({
        ...ended(span, event, decided ? 'unset' : 'error', decided ? undefined : `expired: ${str(data.reason) ?? 'unknown'}`),
        attributes: attrs({
          ...span.attributes,
          'switchboard.approval.decision': decided ? str(data.decision) : 'expired',
          'switchboard.approval.scope': str(data.scope),
          'switchboard.approval.reason': str(data.reason),
          'switchboard.approval.decided_by': str(data.decidedBy),
          ...(decided ? { 'switchboard.decider.kind': by.kind, 'switchboard.decider.id': by.id, 'switchboard.decider.name': by.name } : {}),
        }),
      }));
      break;
    }
    case RoutedRequestEvents.hookInvoked: {
      if (!session) break;
      const args = record(data.arguments);
      const hookType = str(args.hookType) ?? 'hook';
      const latencyMs = num(data.latencyMs) ?? 0;
      const outcome = str(data.outcome);
      const place = hookPlace(session, data, state);
      const open = newSpan(event, {
        spanId: SpanIds.hook(session, str(data.requestId) ?? event.eventId),
        ...place,
        name: `execute_hook ${hookType}`,
        kind: 'client',
        startTime: addMs(event.recordedAt, -Math.max(0, Math.round(latencyMs))),
        attributes: attrs({
          [ATTR_GEN_AI_OPERATION_NAME]: 'execute_hook',
          'switchboard.hook.type': hookType,
          'switchboard.hook.outcome': outcome,
          'switchboard.hook.reason': str(data.reason),
          [ATTR_GEN_AI_TOOL_NAME]: str(data.toolName),
          [ATTR_GEN_AI_CONVERSATION_ID]: session,
        }),
      });
      // A hook whose webhook failed (open: the call went on; closed: it was stopped) is an error either way.
      const failed = outcome === 'error' || (outcome?.startsWith('failed') ?? false);
      changes.open(ended(open, event, failed ? 'error' : 'unset', failed ? (str(data.reason) ?? outcome) : undefined));
      break;
    }
    case RoutedRequestEvents.userInputRequested: {
      const requestId = str(data.requestId);
      if (!session || !requestId) break;
      const place = hookPlace(session, data, state);
      changes.open(
        newSpan(event, {
          spanId: SpanIds.userInput(session, requestId),
          ...place,
          name: 'await_user_input',
          kind: 'internal',
          attributes: attrs({
            [ATTR_GEN_AI_OPERATION_NAME]: 'await_user_input',
            [ATTR_GEN_AI_AGENT_NAME]: str(data.agentName),
            [ATTR_GEN_AI_CONVERSATION_ID]: session,
          }),
        }),
      );
      break;
    }
    case RoutedRequestEvents.userInputAnswered: {
      const requestId = str(data.requestId);
      if (!session || !requestId) break;
      const by = actorOfMetadata(event.metadata);
      changes.change(SpanIds.userInput(session, requestId), event.type, (span) => ({
        ...ended(span, event, 'unset'),
        attributes: attrs({
          ...span.attributes,
          'switchboard.user_input.outcome': str(data.outcome),
          'switchboard.user_input.answered_by': str(data.decidedBy) ?? by.name,
          'switchboard.decider.kind': by.kind,
          'switchboard.decider.id': by.id,
          'switchboard.decider.name': by.name,
        }),
      }));
      break;
    }
  }
  return changes.list;
}

function spanEvent(event: StoredEvent, attributes: Attributes): SpanEvent {
  return { name: event.type, time: event.recordedAt, attributes };
}

/** A hook or question of a CLI sub-agent goes under its span; else under the session's current span. */
function hookPlace(session: string, data: Data, state: TraceState): Placement {
  const place = placeIn(state.context(session), session);
  const child = str(data.childSessionId);
  return child ? { ...place, parentSpanId: SpanIds.subagent(session, child) } : place;
}

function messageSent(
  event: StoredEvent,
  session: string | undefined,
  data: Data,
  state: TraceState,
  changes: Changes,
  options: TraceMappingOptions,
): void {
  if (!session) return;
  const context = state.context(session) ?? emptyContext(session);
  const recorded = recordedTraceOf(data.trace);
  if (context.runId) {
    // A run's thread: its work nests under the run's span (no turn span of its own).
    if (recorded) changes.context({ ...context, traceId: recorded.traceId, spanId: recorded.spanId });
    return;
  }
  // A turn left open (a message queued while one ran): it ends where the next begins.
  changes.change(context.spanId, 'previous turn', (span) => ended(span, event, 'unset'), { onlyOpen: true });
  const trace = recorded ?? { traceId: traceIdOf('turn', event.streamId, event.eventId), spanId: SpanIds.turn(session, event.eventId) };
  const agentName = context.agentName ?? 'main';
  const team = context.team && context.team.length > 0;
  const operation = team ? GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW : GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT;
  changes.open(
    newSpan(event, {
      spanId: trace.spanId,
      traceId: trace.traceId,
      parentSpanId: trace.parentSpanId ?? null,
      name: `${operation} ${agentName}`,
      kind: 'internal',
      attributes: attrs({
        [ATTR_GEN_AI_OPERATION_NAME]: operation,
        [ATTR_GEN_AI_AGENT_ID]: context.agentId ?? agentName,
        [ATTR_GEN_AI_AGENT_NAME]: agentName,
        [ATTR_GEN_AI_CONVERSATION_ID]: session,
        [ATTR_GEN_AI_WORKFLOW_NAME]: team ? agentName : undefined,
        'switchboard.team.agents': team ? (context.team ?? undefined) : undefined,
        [ATTR_GEN_AI_INPUT_MESSAGES]: options.content ? textMessages('user', str(data.prompt)) : undefined,
      }),
    }),
  );
  changes.context({ ...context, traceId: trace.traceId, spanId: trace.spanId });
}

function toolStarted(
  event: StoredEvent,
  session: string | undefined,
  data: Data,
  state: TraceState,
  changes: Changes,
  options: TraceMappingOptions,
): void {
  const payload = record(data.payload);
  const toolCallId = str(payload.toolCallId);
  if (!session || !toolCallId) return;
  const place = placeIn(state.context(session), session);
  const agentId = str(data.agentId);
  const toolName = str(payload.toolName) ?? 'tool';
  changes.open(
    newSpan(event, {
      spanId: SpanIds.tool(session, toolCallId),
      traceId: place.traceId,
      // A CLI sub-agent's call (protocol 3 names it on the record) nests under that sub-agent.
      parentSpanId: agentId ? SpanIds.subagent(session, agentId) : place.parentSpanId,
      name: `${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${toolName}`,
      kind: 'internal',
      attributes: attrs({
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
        [ATTR_GEN_AI_TOOL_NAME]: toolName,
        [ATTR_GEN_AI_TOOL_CALL_ID]: toolCallId,
        [ATTR_GEN_AI_CONVERSATION_ID]: session,
        'switchboard.cli_agent.id': agentId,
        [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: options.content ? textOf(payload.arguments) : undefined,
      }),
    }),
  );
}

function runStarted(event: StoredEvent, data: Data, state: TraceState, changes: Changes, options: TraceMappingOptions): void {
  const runId = str(data.runId);
  if (!runId) return;
  const epoch = num(data.epoch) ?? 1;
  const threadId = str(data.threadId) ?? runThreadId(runId);
  const recorded = recordedTraceOf(data.trace);
  let place: Placement;
  if (recorded) place = { traceId: recorded.traceId, parentSpanId: recorded.parentSpanId ?? null };
  else {
    // Recorded before runs named their trace: under the calling session's current span, else a trace of the root run.
    const caller = [str(data.parentThreadId), str(data.ownerThreadId)].map((id) => (id ? state.context(id) : undefined)).find((c) => c?.traceId);
    place = caller ? placeIn(caller, caller.sessionId) : { traceId: traceIdOf(`run:${str(data.rootRunId) ?? runId}`), parentSpanId: null };
  }
  const spanId = recorded?.spanId ?? SpanIds.run(runId, epoch);
  const agentId = str(data.agentId) ?? 'agent';
  const agentName = str(data.agentName) ?? agentId;
  changes.open(
    newSpan(event, {
      spanId,
      ...place,
      name: `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${agentName}`,
      kind: 'internal',
      attributes: attrs({
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
        [ATTR_GEN_AI_AGENT_ID]: agentId,
        [ATTR_GEN_AI_AGENT_NAME]: agentName,
        [ATTR_GEN_AI_CONVERSATION_ID]: threadId,
        'switchboard.run.id': runId,
        'switchboard.run.epoch': epoch,
        'switchboard.run.background': data.background === true,
        'switchboard.run.depth': num(data.depth),
        'switchboard.run.root_id': str(data.rootRunId),
        'switchboard.run.parent_id': str(data.parentRunId),
        'switchboard.replay.mode': str(record(data.replay).mode),
        [ATTR_GEN_AI_INPUT_MESSAGES]: options.content ? textMessages('user', str(data.prompt)) : undefined,
      }),
    }),
  );
  const context = state.context(threadId) ?? emptyContext(threadId);
  changes.context({ ...context, traceId: place.traceId, spanId, agentId, agentName, runId, team: null });
}

function runResumed(event: StoredEvent, data: Data, state: TraceState, changes: Changes, options: TraceMappingOptions): void {
  const runId = str(data.runId);
  const epoch = num(data.epoch);
  if (!runId || epoch === undefined) return;
  const threadId = runThreadId(runId);
  const context = state.context(threadId) ?? emptyContext(threadId);
  const previous = state.span(SpanIds.run(runId, epoch - 1)) ?? (context.spanId ? state.span(context.spanId) : undefined);
  const recorded = recordedTraceOf(data.trace);
  const traceId = recorded?.traceId ?? previous?.traceId ?? context.traceId ?? traceIdOf(`run:${runId}`);
  const spanId = recorded?.spanId ?? SpanIds.run(runId, epoch);
  const agentName = context.agentName ?? str(previous?.attributes[ATTR_GEN_AI_AGENT_NAME]) ?? 'agent';
  changes.open(
    newSpan(event, {
      spanId,
      traceId,
      parentSpanId: recorded ? (recorded.parentSpanId ?? null) : (previous?.parentSpanId ?? null),
      name: `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${agentName}`,
      kind: 'internal',
      attributes: attrs({
        ...(previous ? withoutContent(previous.attributes) : {}),
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
        [ATTR_GEN_AI_AGENT_NAME]: agentName,
        [ATTR_GEN_AI_CONVERSATION_ID]: threadId,
        'switchboard.run.id': runId,
        'switchboard.run.epoch': epoch,
        'switchboard.run.resumed_by': str(data.resumedBy),
        [ATTR_GEN_AI_INPUT_MESSAGES]: options.content ? textMessages('user', str(data.prompt)) : undefined,
      }),
    }),
  );
  changes.context({ ...context, traceId, spanId, runId });
}

function withoutContent(attributes: Attributes): Attributes {
  const { [ATTR_GEN_AI_INPUT_MESSAGES]: _input, [ATTR_GEN_AI_OUTPUT_MESSAGES]: _output, ...rest } = attributes;
  return rest;
}

function runEnded(span: SpanRow, event: StoredEvent, data: Data, options: TraceMappingOptions): SpanRow {
  switch (event.type) {
    case RunEvents.completed:
      return {
        ...ended(span, event, 'ok'),
        attributes: attrs({
          ...span.attributes,
          [ATTR_GEN_AI_OUTPUT_MESSAGES]: options.content ? textMessages('assistant', str(data.output)) : undefined,
        }),
      };
    case RunEvents.failed:
      return ended(span, event, 'error', str(data.error) ?? 'run failed');
    case RunEvents.stopped: {
      const by = record(data.stoppedBy);
      const stop = spanEvent(
        event,
        attrs({
          'switchboard.stopped_by': str(by.actor),
          'switchboard.stop.reason': str(by.reason),
          'switchboard.stop.cascade_from': str(by.cascadeFrom),
          'switchboard.stop.forced': data.forced === true,
        }),
      );
      return { ...ended(span, event, 'unset'), events: [...span.events, stop] };
    }
    default:
      return {
        ...ended(span, event, 'error', 'interrupted'),
        attributes: attrs({ ...span.attributes, 'switchboard.run.interrupted_reason': str(data.reason) }),
      };
  }
}

function modelCallStarted(event: StoredEvent, data: Data, state: TraceState, changes: Changes, options: TraceMappingOptions): void {
  const callId = str(data.callId);
  const sessionId = str(data.sessionId);
  if (!callId || !sessionId) return;
  const place = placeIn(state.context(sessionId), sessionId);
  const subagentId = str(data.subagentId);
  const model = str(data.model) ?? 'unknown';
  const replay = record(data.replay);
  const span = newSpan(event, {
    spanId: SpanIds.modelCall(callId),
    traceId: place.traceId,
    parentSpanId: subagentId ? SpanIds.subagent(sessionId, subagentId) : place.parentSpanId,
    name: `${GEN_AI_OPERATION_NAME_VALUE_CHAT} ${model}`,
    kind: 'client',
    attributes: attrs({
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
      [ATTR_GEN_AI_PROVIDER_NAME]: str(data.provider),
      [ATTR_GEN_AI_REQUEST_MODEL]: model,
      [ATTR_GEN_AI_REQUEST_MAX_TOKENS]: num(data.cappedOutputTokens) ?? num(data.maxOutputTokens),
      // The agent whose span the call sits under names it: the sub-agent's, else the session's or run's
      // agent as its span names it (the ledger's lineage has only the agent's id there).
      [ATTR_GEN_AI_AGENT_NAME]: subagentId ? str(data.agentName) : (state.context(sessionId)?.agentName ?? str(data.agentName)),
      [ATTR_GEN_AI_CONVERSATION_ID]: sessionId,
      'switchboard.model_call.id': callId,
      'switchboard.cli_agent.id': str(data.cliAgentId),
      'switchboard.run.id': str(data.runId),
      'switchboard.model_call.interaction_type': str(data.interactionType),
      'switchboard.replay.source': str(replay.source),
      'switchboard.replay.original_call_id': str(replay.originalCallId),
      'switchboard.replay.position': num(replay.position),
      'switchboard.replay.divergence': str(record(replay.divergence).part),
      'switchboard.replay.fork_point': replay.forkPoint === true ? true : undefined,
      [ATTR_GEN_AI_INPUT_MESSAGES]: options.content ? inputMessagesOfRequest(str(data.request)) : undefined,
    }),
  });
  if (event.type === ModelCallEvents.refused) {
    const refused = ended(span, event, 'error', str(data.message) ?? 'refused');
    refused.attributes = attrs({
      ...refused.attributes,
      'error.type': 'refused',
      'switchboard.model_call.refused.limit': str(data.limit),
      'switchboard.model_call.refused.used': num(data.used),
      'switchboard.model_call.refused.max': num(data.max),
    });
    changes.open(refused);
  } else changes.open(span);
}

function modelCallEnded(span: SpanRow, event: StoredEvent, data: Data, options: TraceMappingOptions): SpanRow {
  const usage = record(data.usage);
  const cost = record(data.cost);
  const finishReason = str(data.finishReason);
  const answer = str(data.answer);
  const facts = {
    [ATTR_GEN_AI_RESPONSE_ID]: str(data.responseId),
    [ATTR_GEN_AI_RESPONSE_MODEL]: responseModelOf(answer),
    [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: finishReason ? [finishReason] : undefined,
    [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: num(usage.inputTokens),
    [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: num(usage.outputTokens),
    [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: num(usage.cachedInputTokens),
    [ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS]: num(usage.reasoningTokens),
    'switchboard.cost.amount': num(cost.amount),
    'switchboard.cost.currency': str(cost.currency),
    'http.response.status_code': num(data.status),
    'switchboard.model_call.ttfb_ms': num(data.ttfbMs),
    [ATTR_GEN_AI_OUTPUT_MESSAGES]: options.content ? outputMessagesOfAnswer(answer, finishReason) : undefined,
  };
  if (event.type === ModelCallEvents.finished) return { ...ended(span, event, 'unset'), attributes: attrs({ ...span.attributes, ...facts }) };
  if (event.type === ModelCallEvents.failed) {
    return {
      ...ended(span, event, 'error', str(data.error) ?? 'model call failed'),
      attributes: attrs({ ...span.attributes, ...facts, 'error.type': str(data.outcome) ?? 'failed' }),
    };
  }
  return {
    ...ended(span, event, 'error', `interrupted: ${str(data.reason) ?? 'unknown'}`),
    attributes: attrs({ ...span.attributes, 'error.type': 'interrupted' }),
  };
}

function approvalAsked(event: StoredEvent, data: Data, state: TraceState, changes: Changes): void {
  const approvalId = str(data.approvalId);
  const sessionId = str(data.sessionId);
  if (!approvalId || !sessionId) return;
  const place = placeIn(state.context(sessionId), sessionId);
  // The CLI names the tool call inside the request it sent (`arguments.toolCallId`).
  const toolCallId = str(data.toolCallId) ?? str(record(data.arguments).toolCallId);
  const child = str(data.childSessionId);
  const parentSpanId = toolCallId ? SpanIds.tool(sessionId, toolCallId) : child ? SpanIds.subagent(sessionId, child) : place.parentSpanId;
  const what = str(data.toolName) ?? str(data.kind) ?? 'request';
  changes.open(
    newSpan(event, {
      spanId: SpanIds.approval(approvalId),
      traceId: place.traceId,
      parentSpanId,
      name: `await_approval ${what}`,
      kind: 'internal',
      attributes: attrs({
        [ATTR_GEN_AI_OPERATION_NAME]: 'await_approval',
        [ATTR_GEN_AI_AGENT_NAME]: str(data.agentName),
        [ATTR_GEN_AI_CONVERSATION_ID]: sessionId,
        [ATTR_GEN_AI_TOOL_NAME]: str(data.toolName),
        [ATTR_GEN_AI_TOOL_CALL_ID]: toolCallId,
        'switchboard.approval.id': approvalId,
        'switchboard.approval.kind': str(data.kind),
        'switchboard.run.id': str(data.runId),
      }),
    }),
  );
}

import { ATTR_GEN_AI_INPUT_MESSAGES, ATTR_GEN_AI_OPERATION_NAME, ATTR_GEN_AI_OUTPUT_MESSAGES } from '@opentelemetry/semantic-conventions/incubating';
import { type RecordedTrace, traceIdOf } from '../../../common';
import { fieldsOf, type StoredEvent, runIdOfThread, sessionIdOfStream } from '../../../event-store';

/**
 * issue 28: the spans and session contexts the `trace-spans` projection keeps, and the pieces each
 * context's mapping (`*-spans.ts` beside this file) builds them with. Pure: no database, no clock.
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

/**
 * How one source context's events become spans. Each reads its events through the owning context's
 * exported reader (`readRunEvent`, …), so a renamed payload field fails to compile here.
 */
export interface ContextSpanMapping {
  /** The event types it maps (stored types). */
  readonly types: readonly string[];
  /** The session ids whose contexts `map` reads; undefined: the session whose stream the event is on. */
  sessionsNeeded(event: StoredEvent): Array<string | undefined> | undefined;
  /** The span ids whose rows `map` reads; `current` is a session's current span, once contexts are known. */
  spansNeeded(event: StoredEvent, current: (sessionId: string | undefined) => string | undefined): Array<string | undefined>;
  /** What the event changes. Never throws on an old or odd event: it maps what it can. */
  map(event: StoredEvent, state: TraceState, changes: Changes, options: TraceMappingOptions): void;
}

// ---- reading values without trusting their shape (old events, other versions) ----

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
export function recordedTraceOf(value: unknown): RecordedTrace | undefined {
  const trace = fieldsOf<RecordedTrace>(value);
  const traceId = str(trace.traceId);
  const spanId = str(trace.spanId);
  if (!traceId || !spanId) return undefined;
  const parentSpanId = str(trace.parentSpanId);
  return parentSpanId ? { traceId, spanId, parentSpanId } : { traceId, spanId };
}
/** Attributes without the undefined ones. */
export function attrs(values: Record<string, AttributeValue | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out;
}
export function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
export function addMs(iso: string, ms: number): string {
  const time = Date.parse(iso);
  return Number.isFinite(time) ? new Date(time + ms).toISOString() : iso;
}

/** GenAI semconv message JSON: one text part per message. */
export function textMessages(role: string, text: string | undefined): string | undefined {
  return text === undefined ? undefined : JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
}

export function withoutContent(attributes: Attributes): Attributes {
  const { [ATTR_GEN_AI_INPUT_MESSAGES]: _input, [ATTR_GEN_AI_OUTPUT_MESSAGES]: _output, ...rest } = attributes;
  return rest;
}

// ---- building spans ----

export interface Placement {
  traceId: string;
  parentSpanId: string | null;
}

/** Where work of `sessionId` goes: under its current span (turn or run), in its trace (else a derived, stable one). */
export function placeIn(context: SessionContext | undefined, sessionId: string): Placement {
  return { traceId: context?.traceId ?? traceIdOf('session', sessionId), parentSpanId: context?.spanId ?? null };
}

export function newSpan(
  event: StoredEvent,
  fields: Pick<SpanRow, 'spanId' | 'name' | 'kind' | 'attributes'> & Placement & { startTime?: string },
): SpanRow {
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

/**
 * A GenAI span as the semantic conventions name it: `{operation} {subject}` (`chat gpt-4o`,
 * `invoke_agent reviewer`, `execute_tool grep`), its operation the first attribute.
 */
export function genAiSpan(
  event: StoredEvent,
  fields: Pick<SpanRow, 'spanId' | 'kind'> & Placement & { operation: string; subject: string; attributes: Record<string, AttributeValue | undefined> },
): SpanRow {
  const { operation, subject, attributes, ...placed } = fields;
  return newSpan(event, { ...placed, name: `${operation} ${subject}`, attributes: attrs({ [ATTR_GEN_AI_OPERATION_NAME]: operation, ...attributes }) });
}

export function ended(span: SpanRow, event: StoredEvent, status: SpanStatusCode, message?: string): SpanRow {
  return { ...span, endTime: event.recordedAt, endedPosition: event.globalPosition, statusCode: status, statusMessage: message ?? null };
}

export function emptyContext(sessionId: string): SessionContext {
  return { sessionId, traceId: null, spanId: null, agentId: null, agentName: null, runId: runIdOfThread(sessionId) ?? null, team: null };
}

export function spanEvent(event: StoredEvent, attributes: Attributes): SpanEvent {
  return { name: event.type, time: event.recordedAt, attributes };
}

/** The session an event on a session stream belongs to. */
export function sessionOf(event: StoredEvent): string | undefined {
  return sessionIdOfStream(event.streamId);
}

export class Changes {
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

import { createHash } from 'node:crypto';

/**
 * issue 28: W3C trace context (https://www.w3.org/TR/trace-context/) as Switchboard records and sends it.
 * Trace and span ids are derived from what the log already names (a run id, a model call id, a tool
 * call id), so the traces projection re-exports the same ids however often it runs; the few that start
 * a trace (a session's turn, a root run) are recorded on the event that starts it (`RecordedTrace`),
 * together with the caller's span when a `traceparent` came with the request.
 */

/** A caller's span, read off a `traceparent` header. */
export interface TraceParent {
  /** 32 lower-case hex digits, not all zero. */
  traceId: string;
  /** 16 lower-case hex digits, not all zero. */
  spanId: string;
  /** The sampled flag (trace-flags bit 0). */
  sampled: boolean;
}

/**
 * Recorded on the event that opens a span others nest under (`session.message_sent`: the turn;
 * `run.started`: the run): the trace it belongs to, its own span id, and its parent span (the caller's
 * span, the turn or tool call that started a run), absent for a trace's root.
 */
export interface RecordedTrace {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * A `traceparent` header's caller span, or undefined when it is absent or malformed: as the W3C spec
 * says, a receiver that cannot parse it ignores it and starts a trace of its own (never an error).
 */
export function parseTraceparent(header: string | readonly string[] | undefined): TraceParent | undefined {
  const value: unknown = typeof header === 'string' ? header : header?.[0];
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version ff is invalid; version 00 has nothing after the flags.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` header value naming `spanId` in `traceId`, sampled. */
export function formatTraceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}

function hexOf(length: number, parts: readonly string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, length);
  // All zeros is the invalid id; a sha-256 prefix of zeros is not going to happen, but costs nothing to rule out.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** A trace id derived from names (the same names, the same id). */
export function traceIdOf(...parts: string[]): string {
  return hexOf(32, parts);
}

/** A span id derived from names (the same names, the same id). */
export function spanIdOf(...parts: string[]): string {
  return hexOf(16, parts);
}

/**
 * The span id of each kind of span the traces projection writes, in one place: the projection and
 * the code that sends a `traceparent` (webhooks, hooks, the CLI) must name the same span.
 */
export const SpanIds = {
  /** A session's turn: one per `session.message_sent` of a session that is not a run's thread. */
  turn: (sessionId: string, turnId: string) => spanIdOf('turn', sessionId, turnId),
  /** A run (one span per epoch: a resumed run is a span of its own). */
  run: (runId: string, epoch: number) => spanIdOf('run', runId, String(epoch)),
  /** A CLI sub-agent (`task`) launched in a session: keyed by the CLI's agent id for it. */
  subagent: (sessionId: string, cliAgentId: string) => spanIdOf('subagent', sessionId, cliAgentId),
  /** A model call through the model route. */
  modelCall: (callId: string) => spanIdOf('chat', callId),
  /** A tool call the CLI made in a session (the session that owns its routing: the parent of a child). */
  tool: (sessionId: string, toolCallId: string) => spanIdOf('tool', sessionId, toolCallId),
  /** A permission request a person was asked to decide. */
  approval: (approvalId: string) => spanIdOf('approval', approvalId),
  /** One hook call (its recorded event). */
  hook: (sessionId: string, requestId: string) => spanIdOf('hook', sessionId, requestId),
  /** A question the CLI asked a person (`user_input.requested`), by its request id. */
  userInput: (sessionId: string, requestId: string) => spanIdOf('user_input', sessionId, requestId),
} as const;

/**
 * The trace a new turn or root run records: the caller's trace with its span as the parent when a
 * `traceparent` came, else a trace of its own. `key` names what opens it (`turn:<session>:<turnId>`,
 * `run:<runId>`) so the trace id is derived, not random.
 */
export function openTrace(spanId: string, key: string, caller?: TraceParent): RecordedTrace {
  return caller ? { traceId: caller.traceId, spanId, parentSpanId: caller.spanId } : { traceId: traceIdOf(key), spanId };
}

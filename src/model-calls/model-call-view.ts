import { InvalidInputError } from '../common';
import type { StoredEvent } from '../event-store';
import { isModelCallEvent, ModelCallEvents, type ReplayDivergence } from './model-call.events';
import type { ModelCallRow } from './model-calls-read-model';

/** A model call as the read APIs show it (REST in camelCase, GraphQL's ModelCall): the row without the router's bookkeeping. */
export interface ModelCallView {
  callId: string;
  /** in_flight, succeeded, failed, cancelled, refused or interrupted */
  status: string;
  sessionId: string;
  agentName: string;
  subagentId: string | null;
  runId: string | null;
  rootRunId: string | null;
  lineagePath: string[];
  provider: string;
  model: string;
  interactionType: string | null;
  initiator: string | null;
  requestBytes: number;
  messageCount: number;
  toolCount: number;
  stream: boolean;
  httpStatus: number | null;
  ttfbMs: number | null;
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number | null;
  reasoningTokens: number | null;
  responseId: string | null;
  finishReason: string | null;
  /** Null when the model has no price (unknown, never 0). */
  cost: number | null;
  currency: string | null;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
  /** issue 26: set on a call of a replay or fork session: where its answer came from and how it compared with the original. */
  replay: ModelCallReplayView | null;
}

/** issue 26: a replayed or forked call's place against its original. */
export interface ModelCallReplayView {
  /** `record`: the original's answer was played back (nothing reached the model); `live`: sent to the model. */
  source: string;
  originalCallId: string | null;
  /** 1-based position among its agent's calls in its session. */
  position: number | null;
  /** The first difference from the original's request, both versions; null when none. */
  divergence: ReplayDivergence | null;
  /** The fork point: the fork's message was appended here, its overrides applied from here. */
  forkPoint: boolean;
}

/** The bodies a call's stream keeps (`SWITCHBOARD_MODEL_CONTENT=full`); null when not kept. */
export interface ModelCallBodies {
  request: string | null;
  answer: string | null;
  requestTruncated: boolean;
  answerTruncated: boolean;
}

export interface ModelCallPage {
  calls: ModelCallView[];
  /** Pass as `after` for the next page; null on the last one. */
  nextCursor: string | null;
}

export function modelCallViewOf(row: ModelCallRow): ModelCallView {
  const {
    startedPosition: _position,
    cliAgentId: _cliAgent,
    agentInvocationId: _invocation,
    runPath: _path,
    instanceId: _instance,
    bodies: _bodies,
    replaySource,
    originalCallId,
    replayPosition,
    divergence,
    forkPoint,
    lineagePath,
    ...fields
  } = row;
  const replay: ModelCallReplayView | null = replaySource
    ? {
        source: replaySource,
        originalCallId,
        position: replayPosition,
        divergence: divergence ? (JSON.parse(divergence) as ReplayDivergence) : null,
        forkPoint: forkPoint === true,
      }
    : null;
  return { ...fields, lineagePath: JSON.parse(lineagePath) as string[], replay };
}

/** The request from `model_call.started`, the answer from `model_call.finished` or `failed`. */
export function modelCallBodiesOf(events: readonly StoredEvent[]): ModelCallBodies {
  const bodies: ModelCallBodies = { request: null, answer: null, requestTruncated: false, answerTruncated: false };
  for (const event of events) {
    if (!isModelCallEvent(event)) continue;
    if (event.type === ModelCallEvents.started) {
      bodies.request = event.data.request ?? null;
      bodies.requestTruncated = event.data.requestTruncated === true;
    } else if (event.type === ModelCallEvents.finished || event.type === ModelCallEvents.failed) {
      bodies.answer = event.data.answer ?? null;
      bodies.answerTruncated = event.data.answerTruncated === true;
    }
  }
  return bodies;
}

/** A page of rows read one past `limit`: the calls, and a cursor when there are more. */
export function modelCallPageOf(rows: readonly ModelCallRow[], limit: number): ModelCallPage {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { calls: page.map(modelCallViewOf), nextCursor: rows.length > limit && last ? encodeModelCallCursor(last.startedPosition) : null };
}

/** Opaque to callers: base64url of the last call's started position. */
export const encodeModelCallCursor = (position: number): string => Buffer.from(String(position)).toString('base64url');

export function decodeModelCallCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (/^[1-9]\d{0,15}$/.test(text)) return Number(text);
  throw new InvalidInputError(`after: ${JSON.stringify(cursor)} is not a cursor this API gave out (pass the previous page's nextCursor)`);
}

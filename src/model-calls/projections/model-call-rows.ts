import type { StoredEvent } from '../../event-store';
import {
  type ModelCallFailed,
  type ModelCallFinished,
  type ModelCallLineage,
  type ModelCallReplay,
  ModelCallEvents,
  type ModelCallStarted,
  type ModelRequestSummary,
} from '../model-call.events';

/** The columns a call has from its start (or its refusal): lineage and what the request said. */
export function startColumns(d: ModelCallLineage & ModelRequestSummary & { callId: string; instanceId: string }, event: StoredEvent) {
  return {
    callId: d.callId,
    startedPosition: event.globalPosition,
    sessionId: d.sessionId,
    cliAgentId: d.cliAgentId,
    agentInvocationId: d.agentInvocationId ?? null,
    agentName: d.agentName,
    subagentId: d.subagentId ?? null,
    runId: d.runId ?? null,
    rootRunId: d.rootRunId ?? null,
    runPath: d.runPath ?? null,
    lineagePath: JSON.stringify(d.lineagePath),
    provider: d.provider,
    model: d.model,
    interactionType: d.interactionType ?? null,
    initiator: d.initiator ?? null,
    requestBytes: d.requestBytes,
    messageCount: d.messageCount,
    toolCount: d.toolCount,
    stream: d.stream,
    instanceId: d.instanceId,
    startedAt: event.recordedAt,
  };
}

/** issue 26: how a call of a replay or fork session was answered; all null for any other call. */
export function replayColumns(replay: ModelCallReplay | undefined) {
  return {
    replaySource: replay?.source ?? null,
    originalCallId: replay?.originalCallId ?? null,
    replayPosition: replay?.position ?? null,
    divergence: replay?.divergence ? JSON.stringify(replay.divergence) : null,
    forkPoint: replay?.forkPoint ?? null,
  };
}

/** Which bodies a call's stream keeps: what a replay can play back. */
function bodiesKept(kept: string | undefined, truncated: boolean | undefined): 'kept' | 'truncated' | 'none' {
  if (kept === undefined) return 'none';
  return truncated ? 'truncated' : 'kept';
}

/** What a `started` event writes: every column of its row (STARTED_FIELDS), an absent field null. */
export function startedRowOf(event: ModelCallStarted & StoredEvent): Record<string, unknown> {
  return nullForUndefined({
    ...startColumns(event.data, event),
    ...replayColumns(event.data.replay),
    bodies: bodiesKept(event.data.request, event.data.requestTruncated),
    status: 'in_flight',
  });
}

/** What a `finished` or `failed` event writes (END_FIELDS, and `bodies`, where null keeps the column), keyed by `callId`. */
export function endedRowOf(event: (ModelCallFinished | ModelCallFailed) & StoredEvent): Record<string, unknown> {
  const d = event.data;
  const usage = d.usage ?? {};
  return {
    callId: d.callId,
    status: event.type === ModelCallEvents.finished ? 'succeeded' : event.data.outcome,
    httpStatus: d.status ?? null,
    ttfbMs: d.ttfbMs ?? null,
    durationMs: d.durationMs,
    inputTokens: usage.inputTokens ?? null,
    outputTokens: usage.outputTokens ?? null,
    cachedInputTokens: usage.cachedInputTokens ?? null,
    reasoningTokens: usage.reasoningTokens ?? null,
    responseId: d.responseId ?? null,
    finishReason: d.finishReason ?? null,
    cost: d.cost?.amount ?? null,
    currency: d.cost?.currency ?? null,
    error: event.type === ModelCallEvents.failed ? event.data.error : null,
    endedAt: event.recordedAt,
    // The answer decides only when it is not kept whole: the request's state stands otherwise (null keeps it).
    bodies: d.answer === undefined || d.answerTruncated ? bodiesKept(d.answer, d.answerTruncated) : null,
  };
}

/** A prepared statement's values: a placeholder needs a value, and an absent field is stored as null (as drizzle stores undefined). */
function nullForUndefined(values: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(values)) if (values[key] === undefined) values[key] = null;
  return values;
}

/** The columns a `started` event writes, each a placeholder named as the column's field (see startColumns, replayColumns). */
export const STARTED_FIELDS = [
  'callId',
  'startedPosition',
  'sessionId',
  'cliAgentId',
  'agentInvocationId',
  'agentName',
  'subagentId',
  'runId',
  'rootRunId',
  'runPath',
  'lineagePath',
  'provider',
  'model',
  'interactionType',
  'initiator',
  'requestBytes',
  'messageCount',
  'toolCount',
  'stream',
  'instanceId',
  'startedAt',
  'replaySource',
  'originalCallId',
  'replayPosition',
  'divergence',
  'forkPoint',
  'bodies',
  'status',
] as const;

/** Every column a `started` row is written with: a field missing from STARTED_FIELDS would be dropped silently. */
type StartedRow = ReturnType<typeof startColumns> & ReturnType<typeof replayColumns> & { bodies: unknown; status: unknown };
/** Fails to compile while a column of StartedRow has no placeholder in STARTED_FIELDS (or the list names one it lacks). */
export const STARTED_FIELDS_COMPLETE: [
  Exclude<keyof StartedRow, (typeof STARTED_FIELDS)[number]>,
  Exclude<(typeof STARTED_FIELDS)[number], keyof StartedRow>,
] extends [never, never]
  ? true
  : never = true;

/** The columns a `finished` or `failed` event sets (besides `bodies`, which it may keep), by `callId`. */
export const END_FIELDS = [
  'status',
  'httpStatus',
  'ttfbMs',
  'durationMs',
  'inputTokens',
  'outputTokens',
  'cachedInputTokens',
  'reasoningTokens',
  'responseId',
  'finishReason',
  'cost',
  'currency',
  'error',
  'endedAt',
] as const;

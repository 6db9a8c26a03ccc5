import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
} from '@opentelemetry/semantic-conventions/incubating';
import { SpanIds } from '../../../common';
import { type UncheckedEvent, fieldsOf, type StoredEvent } from '../../../event-store';
import {
  type ModelCallFailed,
  type ModelCallFinished,
  type ModelCallInterrupted,
  type ModelCallRefused,
  type ModelCallReplay,
  type ModelCallStarted,
  ModelCallEvents,
  type ModelCost,
  type ModelUsage,
  type ReplayDivergence,
  readModelCallEvent,
} from '../../../model-calls';
import { inputMessagesOfRequest, outputMessagesOfAnswer, responseModelOf } from './model-call-messages';
import {
  type ContextSpanMapping,
  type TraceMappingOptions,
  type SpanRow,
  type TraceState,
  type Changes,
  attrs,
  ended,
  genAiSpan,
  num,
  placeIn,
  str,
} from './span-building';

/** issue 25: a model call is a client span from its start (or refusal) to its answer, failure or interruption. */
export const modelCallSpans: ContextSpanMapping = {
  types: [ModelCallEvents.started, ModelCallEvents.finished, ModelCallEvents.failed, ModelCallEvents.refused, ModelCallEvents.interrupted],

  sessionsNeeded(event) {
    const call = readModelCallEvent(event);
    if (!call) return undefined;
    return call.type === ModelCallEvents.started || call.type === ModelCallEvents.refused ? [str(call.data.sessionId)] : undefined;
  },

  spansNeeded(event) {
    const call = readModelCallEvent(event);
    if (!call || call.type === ModelCallEvents.started || call.type === ModelCallEvents.refused) return [];
    const callId = str(call.data.callId);
    return [callId ? SpanIds.modelCall(callId) : undefined];
  },

  map(event, state, changes, options) {
    const call = readModelCallEvent(event);
    if (!call) return;
    if (call.type === ModelCallEvents.started || call.type === ModelCallEvents.refused) return modelCallStarted(event, call, state, changes, options);
    const callId = str(call.data.callId);
    if (!callId) return;
    changes.change(SpanIds.modelCall(callId), event.type, (span) => modelCallEnded(span, event, call, options));
  },
};

function modelCallStarted(
  event: StoredEvent,
  call: UncheckedEvent<ModelCallStarted | ModelCallRefused>,
  state: TraceState,
  changes: Changes,
  options: TraceMappingOptions,
): void {
  const data = call.data;
  const callId = str(data.callId);
  const sessionId = str(data.sessionId);
  if (!callId || !sessionId) return;
  const place = placeIn(state.context(sessionId), sessionId);
  const subagentId = str(data.subagentId);
  const model = str(data.model) ?? 'unknown';
  const replay = fieldsOf<ModelCallReplay>(data.replay);
  const request = call.type === ModelCallEvents.started ? call.data.request : undefined;
  const span = genAiSpan(event, {
    spanId: SpanIds.modelCall(callId),
    traceId: place.traceId,
    parentSpanId: subagentId ? SpanIds.subagent(sessionId, subagentId) : place.parentSpanId,
    operation: GEN_AI_OPERATION_NAME_VALUE_CHAT,
    subject: model,
    kind: 'client',
    attributes: {
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
      'switchboard.replay.divergence': str(fieldsOf<ReplayDivergence>(replay.divergence).part),
      'switchboard.replay.fork_point': replay.forkPoint === true ? true : undefined,
      [ATTR_GEN_AI_INPUT_MESSAGES]: options.content ? inputMessagesOfRequest(str(request)) : undefined,
    },
  });
  if (call.type === ModelCallEvents.refused) {
    const refused = ended(span, event, 'error', str(call.data.message) ?? 'refused');
    refused.attributes = attrs({
      ...refused.attributes,
      'error.type': 'refused',
      'switchboard.model_call.refused.limit': str(call.data.limit),
      'switchboard.model_call.refused.used': num(call.data.used),
      'switchboard.model_call.refused.max': num(call.data.max),
    });
    changes.open(refused);
  } else changes.open(span);
}

function modelCallEnded(
  span: SpanRow,
  event: StoredEvent,
  call: UncheckedEvent<ModelCallFinished | ModelCallFailed | ModelCallInterrupted>,
  options: TraceMappingOptions,
): SpanRow {
  if (call.type === ModelCallEvents.interrupted) {
    return {
      ...ended(span, event, 'error', `interrupted: ${str(call.data.reason) ?? 'unknown'}`),
      attributes: attrs({ ...span.attributes, 'error.type': 'interrupted' }),
    };
  }
  const data = call.data;
  const usage = fieldsOf<ModelUsage>(data.usage);
  const cost = fieldsOf<ModelCost>(data.cost);
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
  if (call.type === ModelCallEvents.finished) return { ...ended(span, event, 'unset'), attributes: attrs({ ...span.attributes, ...facts }) };
  return {
    ...ended(span, event, 'error', str(call.data.error) ?? 'model call failed'),
    attributes: attrs({ ...span.attributes, ...facts, 'error.type': str(call.data.outcome) ?? 'failed' }),
  };
}

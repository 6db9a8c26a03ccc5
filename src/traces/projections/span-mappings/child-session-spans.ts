import {
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_REQUEST_MODEL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import { ChildSessionEvents, readChildSessionEvent } from '../../../child-sessions';
import { SpanIds } from '../../../common';
import { type ContextSpanMapping, attrs, ended, genAiSpan, num, placeIn, sessionOf, str } from './span-building';

/** A CLI sub-agent (the `task` tool) is an agent span under the tool call that launched it. */
export const childSessionSpans: ContextSpanMapping = {
  types: [ChildSessionEvents.subagentStarted, ChildSessionEvents.subagentCompleted, ChildSessionEvents.subagentFailed],

  sessionsNeeded: () => undefined,

  spansNeeded(event) {
    const child = readChildSessionEvent(event);
    const session = sessionOf(event);
    if (!child || !session || (child.type !== ChildSessionEvents.subagentCompleted && child.type !== ChildSessionEvents.subagentFailed)) return [];
    const childId = str(child.data.childSessionId);
    return [childId ? SpanIds.subagent(session, childId) : undefined];
  },

  map(event, state, changes) {
    const child = readChildSessionEvent(event);
    const session = sessionOf(event);
    if (!child || !session) return;
    switch (child.type) {
      case ChildSessionEvents.subagentStarted: {
        const childId = str(child.data.childSessionId);
        const toolCallId = str(child.data.toolCallId);
        if (!childId) return;
        const place = placeIn(state.context(session), session);
        const agentName = str(child.data.agentName) ?? 'sub-agent';
        changes.open(
          genAiSpan(event, {
            spanId: SpanIds.subagent(session, childId),
            traceId: place.traceId,
            parentSpanId: toolCallId ? SpanIds.tool(session, toolCallId) : place.parentSpanId,
            operation: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
            subject: agentName,
            kind: 'internal',
            attributes: {
              [ATTR_GEN_AI_AGENT_ID]: childId,
              [ATTR_GEN_AI_AGENT_NAME]: agentName,
              [ATTR_GEN_AI_CONVERSATION_ID]: session,
              [ATTR_GEN_AI_REQUEST_MODEL]: str(child.data.model),
              'switchboard.subagent.execution_mode': str(child.data.executionMode),
            },
          }),
        );
        return;
      }
      case ChildSessionEvents.subagentCompleted:
      case ChildSessionEvents.subagentFailed: {
        const data = child.data;
        const childId = str(data.childSessionId);
        if (!childId) {
          changes.list.push({
            kind: 'dropped',
            spanId: `tool ${str(data.toolCallId) ?? '?'}`,
            reason: `${event.type} without childSessionId: its sub-agent span is unknown`,
          });
          return;
        }
        const failed = child.type === ChildSessionEvents.subagentFailed;
        changes.change(SpanIds.subagent(session, childId), event.type, (span) => ({
          ...ended(span, event, failed ? 'error' : 'unset', failed ? (str(data.error) ?? 'sub-agent failed') : undefined),
          attributes: attrs({
            ...span.attributes,
            'switchboard.subagent.total_tokens': num(data.totalTokens),
            'switchboard.subagent.total_tool_calls': num(data.totalToolCalls),
          }),
        }));
        return;
      }
    }
  },
};

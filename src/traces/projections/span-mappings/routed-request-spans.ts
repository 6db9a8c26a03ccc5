import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
} from '@opentelemetry/semantic-conventions/incubating';
import { actorOfMetadata, SpanIds } from '../../../common';
import { type HookInvocationArguments, RoutedRequestEvents, readRoutedRequestEvent } from '../../../tool-dispatch';
import { fieldsOf } from '../../../event-store';
import { type ContextSpanMapping, type Placement, type TraceState, addMs, attrs, ended, newSpan, num, placeIn, sessionOf, str } from './span-building';

/** A hook or question of a CLI sub-agent goes under its span; else under the session's current span. */
function hookPlace(session: string, childSessionId: unknown, state: TraceState): Placement {
  const place = placeIn(state.context(session), session);
  const child = str(childSessionId);
  return child ? { ...place, parentSpanId: SpanIds.subagent(session, child) } : place;
}

/** Routed requests: the routing of a tool call (attributes on its span), hooks, and questions to a person. */
export const routedRequestSpans: ContextSpanMapping = {
  types: [
    RoutedRequestEvents.toolCallRouted,
    RoutedRequestEvents.toolCallDenied,
    RoutedRequestEvents.hookInvoked,
    RoutedRequestEvents.userInputRequested,
    RoutedRequestEvents.userInputAnswered,
  ],

  sessionsNeeded: () => undefined,

  spansNeeded(event) {
    const request = readRoutedRequestEvent(event);
    const session = sessionOf(event);
    if (!request || !session) return [];
    switch (request.type) {
      case RoutedRequestEvents.toolCallRouted:
      case RoutedRequestEvents.toolCallDenied: {
        const toolCallId = str(request.data.toolCallId);
        return [toolCallId ? SpanIds.tool(session, toolCallId) : undefined];
      }
      case RoutedRequestEvents.userInputAnswered: {
        const requestId = str(request.data.requestId);
        return [requestId ? SpanIds.userInput(session, requestId) : undefined];
      }
      default:
        return [];
    }
  },

  map(event, state, changes) {
    const request = readRoutedRequestEvent(event);
    const session = sessionOf(event);
    if (!request || !session) return;
    const data = request.data;
    switch (request.type) {
      case RoutedRequestEvents.toolCallRouted:
      case RoutedRequestEvents.toolCallDenied: {
        const toolCallId = str(data.toolCallId);
        if (!toolCallId) return;
        changes.change(SpanIds.tool(session, toolCallId), event.type, (span) => ({
          ...span,
          attributes: attrs({
            ...span.attributes,
            'switchboard.tool.routing': request.type === RoutedRequestEvents.toolCallDenied ? 'denied' : (str(data.outcome) ?? 'routed'),
            'switchboard.tool.routing.via': str(data.via),
            'switchboard.tool.routing.reason': str(data.reason),
          }),
        }));
        return;
      }
      case RoutedRequestEvents.hookInvoked: {
        const hookType = str(fieldsOf<HookInvocationArguments>(data.arguments).hookType) ?? 'hook';
        const latencyMs = num(data.latencyMs) ?? 0;
        const outcome = str(data.outcome);
        const open = newSpan(event, {
          spanId: SpanIds.hook(session, str(data.requestId) ?? event.eventId),
          ...hookPlace(session, data.childSessionId, state),
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
        return;
      }
      case RoutedRequestEvents.userInputRequested: {
        const requestId = str(data.requestId);
        if (!requestId) return;
        changes.open(
          newSpan(event, {
            spanId: SpanIds.userInput(session, requestId),
            ...hookPlace(session, data.childSessionId, state),
            name: 'await_user_input',
            kind: 'internal',
            attributes: attrs({
              [ATTR_GEN_AI_OPERATION_NAME]: 'await_user_input',
              [ATTR_GEN_AI_AGENT_NAME]: str(data.agentName),
              [ATTR_GEN_AI_CONVERSATION_ID]: session,
            }),
          }),
        );
        return;
      }
      case RoutedRequestEvents.userInputAnswered: {
        const requestId = str(data.requestId);
        if (!requestId) return;
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
        return;
      }
    }
  },
};

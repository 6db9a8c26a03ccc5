import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
} from '@opentelemetry/semantic-conventions/incubating';
import { actorOfMetadata, SpanIds } from '../../../common';
import { ApprovalEvents, type PermissionRequestArguments, readApprovalEvent } from '../../../approvals';
import { fieldsOf } from '../../../event-store';
import { type ContextSpanMapping, attrs, ended, newSpan, placeIn, str } from './span-building';

/** issue 14: a permission request that waits for a person is a span from `permission.asked` to its decision or expiry. */
export const approvalSpans: ContextSpanMapping = {
  types: [ApprovalEvents.asked, ApprovalEvents.decided, ApprovalEvents.expired],

  sessionsNeeded(event) {
    const approval = readApprovalEvent(event);
    if (!approval) return undefined;
    return approval.type === ApprovalEvents.asked ? [str(approval.data.sessionId)] : undefined;
  },

  spansNeeded(event) {
    const approval = readApprovalEvent(event);
    if (!approval || approval.type === ApprovalEvents.asked) return [];
    const approvalId = str(approval.data.approvalId);
    return [approvalId ? SpanIds.approval(approvalId) : undefined];
  },

  map(event, state, changes) {
    const approval = readApprovalEvent(event);
    if (!approval) return;
    if (approval.type === ApprovalEvents.asked) {
      const data = approval.data;
      const approvalId = str(data.approvalId);
      const sessionId = str(data.sessionId);
      if (!approvalId || !sessionId) return;
      const place = placeIn(state.context(sessionId), sessionId);
      // The CLI names the tool call inside the request it sent (`arguments.toolCallId`).
      const toolCallId = str(fieldsOf<PermissionRequestArguments>(data.arguments).toolCallId);
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
      return;
    }
    const approvalId = str(approval.data.approvalId);
    if (!approvalId) return;
    const by = actorOfMetadata(event.metadata);
    const decided = approval.type === ApprovalEvents.decided ? approval.data : undefined;
    changes.change(SpanIds.approval(approvalId), event.type, (span) => ({
      ...ended(span, event, decided ? 'unset' : 'error', decided ? undefined : `expired: ${str(approval.data.reason) ?? 'unknown'}`),
      attributes: attrs({
        ...span.attributes,
        'switchboard.approval.decision': decided ? str(decided.decision) : 'expired',
        'switchboard.approval.scope': str(decided?.scope),
        'switchboard.approval.reason': str(approval.data.reason),
        'switchboard.approval.decided_by': str(decided?.decidedBy),
        ...(decided ? { 'switchboard.decider.kind': by.kind, 'switchboard.decider.id': by.id, 'switchboard.decider.name': by.name } : {}),
      }),
    }));
  },
};

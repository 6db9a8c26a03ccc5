import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '@opentelemetry/semantic-conventions/incubating';
import { SpanIds } from '../../../common';
import { type UncheckedEvent, fieldsOf, type StoredEvent } from '../../../event-store';
import {
  type CliAssistantMessagePayload,
  type CliRecordEvent,
  CliRecords,
  type CliToolExecutionCompletePayload,
  type CliToolExecutionStartPayload,
} from '../../../sessions';
import { type Changes, type TraceMappingOptions, type TraceState, attrs, ended, genAiSpan, placeIn, str, textMessages, textOf } from './span-building';

/**
 * The CLI's own records on a session's stream (`cli.<type>`): the turn's end and answer (the main
 * agent's only: a sub-agent's carry `agentId`), and each tool call as an execute_tool span.
 */
export function cliRecordSpans(
  event: StoredEvent,
  session: string,
  cli: UncheckedEvent<CliRecordEvent>,
  state: TraceState,
  changes: Changes,
  options: TraceMappingOptions,
): void {
  switch (cli.type) {
    case CliRecords.sessionIdle: {
      if (str(cli.data.agentId)) return;
      const context = state.context(session);
      if (context && !context.runId) changes.change(context.spanId, 'turn end', (span) => ended(span, event, 'unset'), { onlyOpen: true });
      return;
    }
    case CliRecords.assistantMessage: {
      if (str(cli.data.agentId) || !options.content) return;
      const context = state.context(session);
      const content = str(fieldsOf<CliAssistantMessagePayload>(cli.data.payload).content);
      if (context && !context.runId && content) {
        changes.change(
          context.spanId,
          'turn answer',
          (span) => ({ ...span, attributes: { ...span.attributes, [ATTR_GEN_AI_OUTPUT_MESSAGES]: textMessages('assistant', content) ?? '' } }),
          { onlyOpen: true },
        );
      }
      return;
    }
    case CliRecords.toolExecutionStart: {
      const payload = fieldsOf<CliToolExecutionStartPayload>(cli.data.payload);
      const toolCallId = str(payload.toolCallId);
      if (!toolCallId) return;
      const place = placeIn(state.context(session), session);
      const agentId = str(cli.data.agentId);
      const toolName = str(payload.toolName) ?? 'tool';
      changes.open(
        genAiSpan(event, {
          spanId: SpanIds.tool(session, toolCallId),
          traceId: place.traceId,
          // A CLI sub-agent's call (protocol 3 names it on the record) nests under that sub-agent.
          parentSpanId: agentId ? SpanIds.subagent(session, agentId) : place.parentSpanId,
          operation: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
          subject: toolName,
          kind: 'internal',
          attributes: {
            [ATTR_GEN_AI_TOOL_NAME]: toolName,
            [ATTR_GEN_AI_TOOL_CALL_ID]: toolCallId,
            [ATTR_GEN_AI_CONVERSATION_ID]: session,
            'switchboard.cli_agent.id': agentId,
            [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: options.content ? textOf(payload.arguments) : undefined,
          },
        }),
      );
      return;
    }
    case CliRecords.toolExecutionComplete: {
      const payload = fieldsOf<CliToolExecutionCompletePayload>(cli.data.payload);
      const toolCallId = str(payload.toolCallId);
      if (!toolCallId) return;
      const success = payload.success !== false;
      const error = fieldsOf<CliToolExecutionCompletePayload['error']>(payload.error);
      const result = options.content ? textOf(fieldsOf<CliToolExecutionCompletePayload['result']>(payload.result).content ?? payload.result) : undefined;
      changes.change(SpanIds.tool(session, toolCallId), 'tool end', (span) => ({
        ...ended(span, event, success ? 'unset' : 'error', success ? undefined : (str(error.message) ?? 'tool failed')),
        attributes: attrs({ ...span.attributes, [ATTR_GEN_AI_TOOL_CALL_RESULT]: result }),
      }));
      return;
    }
  }
}

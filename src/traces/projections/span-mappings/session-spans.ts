import {
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_WORKFLOW_NAME,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW,
} from '@opentelemetry/semantic-conventions/incubating';
import { actorOfMetadata, SpanIds, traceIdOf } from '../../../common';
import { fieldsOf, type StoredEvent, type UncheckedEvent } from '../../../event-store';
import {
  type CustomAgentConfig,
  type SessionConfig,
  CliRecords,
  type CliToolExecutionCompletePayload,
  type SessionMessageSent,
  SessionEvents,
  readCliRecord,
  readSessionEvent,
} from '../../../sessions';
import {
  type Changes,
  type ContextSpanMapping,
  type TraceMappingOptions,
  type TraceState,
  attrs,
  emptyContext,
  ended,
  newSpan,
  recordedTraceOf,
  sessionOf,
  spanEvent,
  str,
  textMessages,
} from './span-building';
import { cliRecordSpans } from './cli-record-spans';

/** The agent names in a list (`subAgents`), skipping what is not one. */
function namesIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : [];
}

/** Sessions: a turn is an agent (or, with a team, workflow) span from the message to `session.idle`; CLI tool calls nest in it. */
export const sessionSpans: ContextSpanMapping = {
  types: [
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
    CliRecords.sessionIdle,
    CliRecords.assistantMessage,
    CliRecords.toolExecutionStart,
    CliRecords.toolExecutionComplete,
  ],

  sessionsNeeded: () => undefined,

  spansNeeded(event, current) {
    const session = sessionOf(event);
    const cli = readCliRecord(event);
    if (cli?.type === CliRecords.toolExecutionComplete) {
      const toolCallId = str(fieldsOf<CliToolExecutionCompletePayload>(cli.data.payload).toolCallId);
      return [session && toolCallId ? SpanIds.tool(session, toolCallId) : undefined];
    }
    if (cli?.type === CliRecords.sessionIdle || cli?.type === CliRecords.assistantMessage) return [current(session)];
    switch (readSessionEvent(event)?.type) {
      case SessionEvents.messageSent:
      case SessionEvents.messageFailed:
      case SessionEvents.interrupted:
      case SessionEvents.destroyed:
      case SessionEvents.steered:
      case SessionEvents.abortRequested:
        return [current(session)];
      default:
        return [];
    }
  },

  map(event, state, changes, options) {
    const session = sessionOf(event);
    if (!session) return;
    const cli = readCliRecord(event);
    if (cli) return cliRecordSpans(event, session, cli, state, changes, options);
    const own = readSessionEvent(event);
    if (!own) return;
    const contextOf = (id: string) => state.context(id) ?? emptyContext(id);
    switch (own.type) {
      case SessionEvents.created: {
        const config = fieldsOf<SessionConfig>(own.data.config);
        const agentId = str(config.agentId);
        const context = contextOf(session);
        const subAgents = namesIn(config.subAgents);
        changes.context({
          ...context,
          // A run's thread is named by its run (run.started came first): keep the run's agent.
          agentId: context.agentId ?? agentId ?? 'main',
          // The agent's name as the session recorded it (older sessions: its id), as a run's span names its agent.
          agentName: context.agentName ?? str(config.agentName) ?? agentId ?? 'main',
          team: context.runId ? context.team : subAgents.length > 0 ? subAgents : null,
        });
        return;
      }
      case SessionEvents.started:
      case SessionEvents.resumed: {
        const agents = own.data.teamAgents;
        const team = Array.isArray(agents) ? agents.flatMap((a: unknown) => str(fieldsOf<CustomAgentConfig>(a).name) ?? []) : [];
        const context = contextOf(session);
        if (team.length > 0 && !context.runId) changes.context({ ...context, team });
        return;
      }
      case SessionEvents.subAgentsChanged: {
        const team = namesIn(own.data.subAgents);
        const context = contextOf(session);
        if (!context.runId) changes.context({ ...context, team: team.length > 0 ? team : null });
        return;
      }
      case SessionEvents.messageSent:
        return messageSent(event, session, own, state, changes, options);
      case SessionEvents.messageFailed:
      case SessionEvents.interrupted:
      case SessionEvents.destroyed: {
        const context = state.context(session);
        if (!context || context.runId) return;
        const message =
          own.type === SessionEvents.messageFailed
            ? (str(own.data.error) ?? 'message failed')
            : own.type === SessionEvents.interrupted
              ? `interrupted: ${str(own.data.reason) ?? 'unknown'}`
              : 'session destroyed';
        changes.change(context.spanId, 'turn error', (span) => ended(span, event, 'error', message), { onlyOpen: true });
        return;
      }
      case SessionEvents.steered:
      case SessionEvents.abortRequested: {
        // An abort names no target: it lands on the session's current span.
        const steer = own.type === SessionEvents.steered ? own.data : undefined;
        const subagentId = str(steer?.subagentId);
        changes.event(
          subagentId ? SpanIds.subagent(session, subagentId) : state.context(session)?.spanId,
          event.type,
          spanEvent(
            event,
            attrs({
              'switchboard.steer.target': str(steer?.target),
              'switchboard.steered_by': str(steer?.steeredBy),
              'switchboard.actor': actorOfMetadata(event.metadata).name,
            }),
          ),
        );
        return;
      }
    }
  },
};

function messageSent(
  event: StoredEvent,
  session: string,
  sent: UncheckedEvent<SessionMessageSent>,
  state: TraceState,
  changes: Changes,
  options: TraceMappingOptions,
): void {
  const context = state.context(session) ?? emptyContext(session);
  const recorded = recordedTraceOf(sent.data.trace);
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
        [ATTR_GEN_AI_INPUT_MESSAGES]: options.content ? textMessages('user', str(sent.data.prompt)) : undefined,
      }),
    }),
  );
  changes.context({ ...context, traceId: trace.traceId, spanId: trace.spanId });
}

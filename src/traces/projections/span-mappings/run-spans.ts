import {
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import { SpanIds, traceIdOf } from '../../../common';
import { RUN_STREAM_EVENT_TYPES, type RunEvent, RunEvents, type RunReplay, type StoppedBy, readRunEvent } from '../../../delegation';
import { type UncheckedEvent, fieldsOf, type StoredEvent, runThreadId } from '../../../event-store';
import {
  type Changes,
  type ContextSpanMapping,
  type Placement,
  type SpanRow,
  type TraceMappingOptions,
  type TraceState,
  attrs,
  emptyContext,
  ended,
  genAiSpan,
  newSpan,
  num,
  placeIn,
  recordedTraceOf,
  spanEvent,
  str,
  textMessages,
  withoutContent,
} from './span-building';

type RunRead<Type extends RunEvent['type']> = UncheckedEvent<Extract<RunEvent, { type: Type }>>;
type RunEnd = RunRead<typeof RunEvents.completed | typeof RunEvents.failed | typeof RunEvents.stopped | typeof RunEvents.interrupted>;

/** Delegated runs: one agent span per launch (`run.started`, each `run.resumed`), ended by the run's end. */
export const runSpans: ContextSpanMapping = {
  types: RUN_STREAM_EVENT_TYPES,

  sessionsNeeded(event) {
    const run = readRunEvent(event);
    if (!run) return undefined;
    switch (run.type) {
      case RunEvents.started:
        return [str(run.data.threadId), str(run.data.parentThreadId), str(run.data.ownerThreadId)];
      case RunEvents.resumed:
      case RunEvents.budgetWarned: {
        const runId = str(run.data.runId);
        return [runId ? runThreadId(runId) : undefined];
      }
      default:
        return undefined;
    }
  },

  spansNeeded(event, current) {
    const run = readRunEvent(event);
    if (!run) return [];
    const runId = str(run.data.runId);
    switch (run.type) {
      case RunEvents.completed:
      case RunEvents.failed:
      case RunEvents.stopped:
      case RunEvents.interrupted: {
        const epoch = num(run.data.epoch);
        return [runId && epoch !== undefined ? SpanIds.run(runId, epoch) : undefined];
      }
      case RunEvents.resumed: {
        const epoch = num(run.data.epoch);
        return [runId && epoch !== undefined ? SpanIds.run(runId, epoch - 1) : undefined, runId ? current(runThreadId(runId)) : undefined];
      }
      case RunEvents.budgetWarned:
        return [runId ? current(runThreadId(runId)) : undefined];
      case RunEvents.remoteTaskLinked:
      case RunEvents.remoteUsageReported: {
        const epoch = num(run.data.epoch);
        return [runId && epoch !== undefined ? SpanIds.run(runId, epoch) : undefined];
      }
      default:
        return [];
    }
  },

  map(event, state, changes, options) {
    const run = readRunEvent(event);
    if (!run) return;
    switch (run.type) {
      case RunEvents.started:
        return runStarted(event, run, state, changes, options);
      case RunEvents.resumed:
        return runResumed(event, run, state, changes, options);
      case RunEvents.budgetWarned: {
        const runId = str(run.data.runId);
        if (!runId) return;
        changes.event(
          state.context(runThreadId(runId))?.spanId,
          event.type,
          spanEvent(
            event,
            attrs({
              'switchboard.budget.limit': str(run.data.limit),
              'switchboard.budget.used': num(run.data.used),
              'switchboard.budget.allowed': num(run.data.allowed),
            }),
          ),
        );
        return;
      }
      case RunEvents.remoteTaskLinked: {
        // issue 43: the launch's span names the remote task it waits on (the remote service's own spans are its).
        const runId = str(run.data.runId);
        const epoch = num(run.data.epoch);
        if (!runId || epoch === undefined) return;
        const link = attrs({ 'switchboard.remote.task_id': str(run.data.taskId), 'switchboard.remote.service': str(run.data.service) });
        changes.event(SpanIds.run(runId, epoch), event.type, spanEvent(event, link));
        return;
      }
      case RunEvents.remoteUsageReported: {
        const runId = str(run.data.runId);
        const epoch = num(run.data.epoch);
        if (!runId || epoch === undefined) return;
        const usage = attrs({
          'switchboard.remote.task_id': str(run.data.taskId),
          'switchboard.remote.total_tokens': num(run.data.totalTokens),
          'switchboard.remote.cost': num(run.data.cost),
          'switchboard.remote.currency': str(run.data.currency),
        });
        changes.event(SpanIds.run(runId, epoch), event.type, spanEvent(event, usage));
        return;
      }
      default: {
        const runId = str(run.data.runId);
        const epoch = num(run.data.epoch);
        if (!runId || epoch === undefined) return;
        changes.change(SpanIds.run(runId, epoch), event.type, (span) => runEnded(span, event, run, options));
      }
    }
  },
};

function runStarted(event: StoredEvent, run: RunRead<typeof RunEvents.started>, state: TraceState, changes: Changes, options: TraceMappingOptions): void {
  const data = run.data;
  const runId = str(data.runId);
  if (!runId) return;
  const epoch = num(data.epoch) ?? 1;
  const threadId = str(data.threadId) ?? runThreadId(runId);
  const recorded = recordedTraceOf(data.trace);
  let place: Placement;
  if (recorded) place = { traceId: recorded.traceId, parentSpanId: recorded.parentSpanId ?? null };
  else {
    // Recorded before runs named their trace: under the calling session's current span, else a trace of the root run.
    const caller = [str(data.parentThreadId), str(data.ownerThreadId)].map((id) => (id ? state.context(id) : undefined)).find((c) => c?.traceId);
    place = caller ? placeIn(caller, caller.sessionId) : { traceId: traceIdOf(`run:${str(data.rootRunId) ?? runId}`), parentSpanId: null };
  }
  const spanId = recorded?.spanId ?? SpanIds.run(runId, epoch);
  const agentId = str(data.agentId) ?? 'agent';
  const agentName = str(data.agentName) ?? agentId;
  changes.open(
    genAiSpan(event, {
      spanId,
      ...place,
      operation: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      subject: agentName,
      kind: 'internal',
      attributes: {
        [ATTR_GEN_AI_AGENT_ID]: agentId,
        [ATTR_GEN_AI_AGENT_NAME]: agentName,
        [ATTR_GEN_AI_CONVERSATION_ID]: threadId,
        'switchboard.run.id': runId,
        'switchboard.run.epoch': epoch,
        'switchboard.run.background': data.background === true,
        'switchboard.run.depth': num(data.depth),
        'switchboard.run.root_id': str(data.rootRunId),
        'switchboard.run.parent_id': str(data.parentRunId),
        'switchboard.replay.mode': str(fieldsOf<RunReplay>(data.replay).mode),
        [ATTR_GEN_AI_INPUT_MESSAGES]: options.content ? textMessages('user', str(data.prompt)) : undefined,
      },
    }),
  );
  const context = state.context(threadId) ?? emptyContext(threadId);
  changes.context({ ...context, traceId: place.traceId, spanId, agentId, agentName, runId, team: null });
}

function runResumed(event: StoredEvent, run: RunRead<typeof RunEvents.resumed>, state: TraceState, changes: Changes, options: TraceMappingOptions): void {
  const data = run.data;
  const runId = str(data.runId);
  const epoch = num(data.epoch);
  if (!runId || epoch === undefined) return;
  const threadId = runThreadId(runId);
  const context = state.context(threadId) ?? emptyContext(threadId);
  const previous = state.span(SpanIds.run(runId, epoch - 1)) ?? (context.spanId ? state.span(context.spanId) : undefined);
  const recorded = recordedTraceOf(data.trace);
  const traceId = recorded?.traceId ?? previous?.traceId ?? context.traceId ?? traceIdOf(`run:${runId}`);
  const spanId = recorded?.spanId ?? SpanIds.run(runId, epoch);
  const agentName = context.agentName ?? str(previous?.attributes[ATTR_GEN_AI_AGENT_NAME]) ?? 'agent';
  changes.open(
    newSpan(event, {
      spanId,
      traceId,
      parentSpanId: recorded ? (recorded.parentSpanId ?? null) : (previous?.parentSpanId ?? null),
      name: `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${agentName}`,
      kind: 'internal',
      attributes: attrs({
        ...(previous ? withoutContent(previous.attributes) : {}),
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
        [ATTR_GEN_AI_AGENT_NAME]: agentName,
        [ATTR_GEN_AI_CONVERSATION_ID]: threadId,
        'switchboard.run.id': runId,
        'switchboard.run.epoch': epoch,
        'switchboard.run.resumed_by': str(data.resumedBy),
        [ATTR_GEN_AI_INPUT_MESSAGES]: options.content ? textMessages('user', str(data.prompt)) : undefined,
      }),
    }),
  );
  changes.context({ ...context, traceId, spanId, runId });
}

function runEnded(span: SpanRow, event: StoredEvent, run: RunEnd, options: TraceMappingOptions): SpanRow {
  switch (run.type) {
    case RunEvents.completed:
      return {
        ...ended(span, event, 'ok'),
        attributes: attrs({
          ...span.attributes,
          [ATTR_GEN_AI_OUTPUT_MESSAGES]: options.content ? textMessages('assistant', str(run.data.output)) : undefined,
        }),
      };
    case RunEvents.failed:
      return ended(span, event, 'error', str(run.data.error) ?? 'run failed');
    case RunEvents.stopped: {
      const by = fieldsOf<StoppedBy>(run.data.stoppedBy);
      const stop = spanEvent(
        event,
        attrs({
          'switchboard.stopped_by': str(by.actor),
          'switchboard.stop.reason': str(by.reason),
          'switchboard.stop.cascade_from': str(by.cascadeFrom),
          'switchboard.stop.forced': run.data.forced === true,
        }),
      );
      return { ...ended(span, event, 'unset'), events: [...span.events, stop] };
    }
    case RunEvents.interrupted:
      return {
        ...ended(span, event, 'error', 'interrupted'),
        attributes: attrs({ ...span.attributes, 'switchboard.run.interrupted_reason': str(run.data.reason) }),
      };
  }
}

import { openTrace, type RecordedTrace, SpanIds, traceIdOf } from '../common';
import type { RunState } from './run.decider';
import type { RunCaller } from './run-caller';

/**
 * issue 28: where a run's span sits in a trace (recorded on `run.started` / `run.resumed`). Pure: the
 * calling session's current trace (its last message's) is passed in by whoever holds the session.
 */

/** The trace a run started without one recorded (before issue 28) is placed in: its own, as a root run's. */
function runTraceId(state: RunState): string {
  return state.started.trace?.traceId ?? traceIdOf(`run:${state.started.runId}`);
}

/** The span of the run's current launch (epoch): what its thread's messages nest under. */
export function runSpanOf(state: RunState): RecordedTrace {
  return { traceId: runTraceId(state), spanId: SpanIds.run(state.started.runId, state.epoch) };
}

/**
 * A new run's trace. From `agent_run` (a tool call of a session): the session's current trace, under
 * that call's execute_tool span (the session's current span when the call id is unknown). Over the
 * API: under its parent run's span, else a root run (under the caller's span when a traceparent came).
 */
export function startedRunTrace(runId: string, parent: RunState | undefined, caller: RunCaller, callerSession?: RecordedTrace): RecordedTrace {
  const spanId = SpanIds.run(runId, 1);
  if (caller.kind === 'tool' && callerSession) {
    const parentSpanId = caller.toolCallId ? SpanIds.tool(caller.sessionId, caller.toolCallId) : callerSession.spanId;
    return { traceId: callerSession.traceId, spanId, parentSpanId };
  }
  if (parent) {
    const span = runSpanOf(parent);
    return { traceId: span.traceId, spanId, parentSpanId: span.spanId };
  }
  return openTrace(spanId, `run:${runId}`, caller.kind === 'api' ? caller.traceparent : undefined);
}

/**
 * A resumed run's trace for its new launch: the same trace as its first launch, a span of its own.
 * Its parent is the `agent_run` call that resumed it when that call is in the run's trace, else the
 * first launch's parent (a resume over the API, or from a later turn of the owner: another trace).
 */
export function resumedRunTrace(state: RunState, caller: RunCaller, callerSession?: RecordedTrace): RecordedTrace {
  const traceId = runTraceId(state);
  const spanId = SpanIds.run(state.started.runId, state.epoch + 1);
  const byCall = caller.kind === 'tool' && caller.toolCallId && callerSession?.traceId === traceId;
  const parentSpanId = byCall ? SpanIds.tool(caller.sessionId, caller.toolCallId as string) : state.started.trace?.parentSpanId;
  return { traceId, spanId, ...(parentSpanId ? { parentSpanId } : {}) };
}

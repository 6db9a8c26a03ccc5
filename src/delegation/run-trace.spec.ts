import { runStartedData } from '../../test/fixtures/run-fixtures';
import { SpanIds, traceIdOf } from '../common';
import type { RunState } from './run.decider';
import type { RunStartedData } from './run.events';
import { resumedRunTrace, runSpanOf, startedRunTrace } from './run-trace';

const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', sampled: true };
const TURN = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), parentSpanId: CALLER.spanId };

function run(overrides: Partial<RunStartedData> = {}, epoch = 1): RunState {
  return { started: runStartedData(overrides), status: 'running', epoch, output: null, error: null, stoppedBy: null, budgetWarned: [], remoteTask: null };
}

describe("a run's place in a trace (issue 28)", () => {
  describe('at start', () => {
    it("nests a run agent_run started under that call's execute_tool span, in the calling session's current trace", () => {
      expect(startedRunTrace('r2', undefined, { kind: 'tool', sessionId: 's1', toolCallId: 'call-1' }, TURN)).toEqual({
        traceId: TURN.traceId,
        spanId: SpanIds.run('r2', 1),
        parentSpanId: SpanIds.tool('s1', 'call-1'),
      });
    });

    it("falls back to the session's current span when the call id is unknown", () => {
      expect(startedRunTrace('r2', undefined, { kind: 'tool', sessionId: 's1' }, TURN).parentSpanId).toBe(TURN.spanId);
    });

    it("nests a run started over the API under a parent run under that run's current launch", () => {
      const parent = run({ runId: 'r1', trace: { traceId: 'd'.repeat(32), spanId: SpanIds.run('r1', 1) } }, 3);
      expect(startedRunTrace('r2', parent, { kind: 'api', traceparent: CALLER })).toEqual({
        traceId: 'd'.repeat(32),
        spanId: SpanIds.run('r2', 1),
        parentSpanId: SpanIds.run('r1', 3),
      });
    });

    it("makes a root run a child of the caller's span, or a trace of its own derived from its id", () => {
      expect(startedRunTrace('r2', undefined, { kind: 'api', traceparent: CALLER })).toEqual({
        traceId: CALLER.traceId,
        spanId: SpanIds.run('r2', 1),
        parentSpanId: CALLER.spanId,
      });
      expect(startedRunTrace('r2', undefined, { kind: 'api' })).toEqual({ traceId: traceIdOf('run:r2'), spanId: SpanIds.run('r2', 1) });
    });
  });

  describe('at resume', () => {
    const first = { traceId: 'e'.repeat(32), spanId: SpanIds.run('r1', 1), parentSpanId: SpanIds.tool('s1', 'call-1') };

    it("stays in the first launch's trace under its parent, with a span of the new launch", () => {
      expect(resumedRunTrace(run({ trace: first }, 2), { kind: 'api', traceparent: CALLER })).toEqual({
        traceId: first.traceId,
        spanId: SpanIds.run('r1', 3),
        parentSpanId: first.parentSpanId,
      });
      // The owner resuming it from a later turn (another trace): the first parent still.
      expect(resumedRunTrace(run({ trace: first }), { kind: 'tool', sessionId: 's1', toolCallId: 'call-9' }, TURN).parentSpanId).toBe(first.parentSpanId);
    });

    it('nests under the agent_run call that resumed it when that call is in the same trace', () => {
      const sameTrace = { traceId: first.traceId, spanId: 'f'.repeat(16) };
      expect(resumedRunTrace(run({ trace: first }), { kind: 'tool', sessionId: 's1', toolCallId: 'call-9' }, sameTrace).parentSpanId).toBe(
        SpanIds.tool('s1', 'call-9'),
      );
    });

    it('places a run recorded before traces in a root trace of its own', () => {
      expect(resumedRunTrace(run(), { kind: 'api' })).toEqual({ traceId: traceIdOf('run:r1'), spanId: SpanIds.run('r1', 2) });
      expect(runSpanOf(run({}, 2))).toEqual({ traceId: traceIdOf('run:r1'), spanId: SpanIds.run('r1', 2) });
    });
  });

  it("names the current launch's span for its thread's messages", () => {
    expect(runSpanOf(run({ trace: { traceId: 'e'.repeat(32), spanId: SpanIds.run('r1', 1) } }, 2))).toEqual({
      traceId: 'e'.repeat(32),
      spanId: SpanIds.run('r1', 2),
    });
  });
});

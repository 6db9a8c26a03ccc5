import { SpanIds, traceIdOf } from '../../../common';
import { messageTrace } from './send-message.handler';

const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', sampled: true };
const RUN_SPAN = { traceId: 'a'.repeat(32), spanId: SpanIds.run('r1', 2) };

describe("messageTrace: the span a message's work nests under (issue 28)", () => {
  it("opens a turn span of its own trace, a new one per message, without a caller's span", () => {
    const session = { sessionId: 's1', trace: undefined };
    const first = messageTrace(session, {});
    const second = messageTrace(session, {});
    expect(first.parentSpanId).toBeUndefined();
    expect(first.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(first.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(second.traceId).not.toBe(first.traceId);
    expect(second.spanId).not.toBe(first.spanId);
    // Not the trace a run of the same id would have: a turn's trace is keyed by its session and turn.
    expect(first.traceId).not.toBe(traceIdOf('run:s1'));
  });

  it("makes the turn a child of the caller's span in the caller's trace", () => {
    const trace = messageTrace({ sessionId: 's1', trace: { traceId: 'b'.repeat(32), spanId: 'c'.repeat(16) } }, { caller: CALLER });
    expect(trace).toEqual({ traceId: CALLER.traceId, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), parentSpanId: CALLER.spanId });
    expect(trace.spanId).not.toBe(CALLER.spanId);
  });

  it("puts a run's thread under the run's span the engine names, with no turn span", () => {
    expect(messageTrace({ sessionId: 'sub-agent-r1', trace: undefined }, { run: { ...RUN_SPAN, parentSpanId: 'f'.repeat(16) } })).toEqual(RUN_SPAN);
  });

  it("keeps a message sent straight to a run's thread under the run's current span, whatever traceparent came", () => {
    const current = { traceId: RUN_SPAN.traceId, spanId: RUN_SPAN.spanId };
    expect(messageTrace({ sessionId: 'sub-agent-r1', trace: current }, { caller: CALLER })).toEqual(current);
  });
});

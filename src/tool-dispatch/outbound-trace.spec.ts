import { parseTraceparent, SpanIds } from '../common';
import { hookTraceparent, toolCallTraceparent } from './outbound-trace';

const session = { sessionId: 's1', trace: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), parentSpanId: 'c'.repeat(16) } };

describe("the traceparent Switchboard sends for a session's calls (issue 28)", () => {
  it("names the tool call's execute_tool span in the session's current trace", () => {
    expect(toolCallTraceparent(session, 'call-7')).toBe(`00-${'a'.repeat(32)}-${SpanIds.tool('s1', 'call-7')}-01`);
    expect(parseTraceparent(toolCallTraceparent(session, 'call-7'))).toEqual({
      traceId: 'a'.repeat(32),
      spanId: SpanIds.tool('s1', 'call-7'),
      sampled: true,
    });
  });

  it("falls back to the session's current span when the CLI gave no call id", () => {
    expect(toolCallTraceparent(session, '')).toBe(`00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`);
  });

  it("names a hook call's span by the request id its hook.invoked records", () => {
    expect(hookTraceparent(session, 'req-1')).toBe(`00-${'a'.repeat(32)}-${SpanIds.hook('s1', 'req-1')}-01`);
  });

  it('sends none while the session has no trace (no message sent yet)', () => {
    expect(toolCallTraceparent({ sessionId: 's1' }, 'call-7')).toBeUndefined();
    expect(hookTraceparent({ sessionId: 's1' }, 'req-1')).toBeUndefined();
  });
});

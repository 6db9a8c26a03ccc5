import { formatTraceparent, openTrace, parseTraceparent, SpanIds, spanIdOf, traceIdOf } from './trace-context';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('parseTraceparent (W3C trace context)', () => {
  it("reads a caller's trace id, span id and sampled flag", () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: false });
  });

  it('takes upper-case hex and surrounding blanks, and the first of repeated headers', () => {
    expect(parseTraceparent(`  00-${TRACE.toUpperCase()}-${SPAN.toUpperCase()}-01 `)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(parseTraceparent([`00-${TRACE}-${SPAN}-01`, 'garbage'])?.spanId).toBe(SPAN);
  });

  it('reads a later version by its first four fields, as the spec asks of a version it does not know', () => {
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01-what-comes-later`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['no repeated header', []],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with more fields', `00-${TRACE}-${SPAN}-01-extra`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['a long span id', `00-${TRACE}-${SPAN}0-01`],
    ['not hex', `00-${TRACE.slice(0, -1)}g-${SPAN}-01`],
    ['a missing field', `00-${TRACE}-${SPAN}`],
    ['another separator', `00_${TRACE}_${SPAN}_01`],
  ])('ignores a malformed header (%s): the receiver starts its own trace', (_why, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });
});

describe('trace and span ids', () => {
  it('formats a traceparent the parser reads back', () => {
    const header = formatTraceparent(TRACE, SPAN);
    expect(header).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(parseTraceparent(header)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
  });

  it('derives the same ids from the same names, and other ids from other names', () => {
    expect(traceIdOf('run', 'r1')).toBe(traceIdOf('run', 'r1'));
    expect(traceIdOf('run', 'r1')).not.toBe(traceIdOf('run', 'r2'));
    expect(traceIdOf('run', 'r1')).toMatch(/^[0-9a-f]{32}$/);
    expect(spanIdOf('tool', 's', 'c')).toMatch(/^[0-9a-f]{16}$/);
    // The parts are kept apart: joining them differently names something else.
    expect(spanIdOf('ab', 'c')).not.toBe(spanIdOf('a', 'bc'));
  });

  it('names each kind of span apart, even from the same ids', () => {
    const ids = [
      SpanIds.turn('s', 'x'),
      SpanIds.run('x', 1),
      SpanIds.run('x', 2),
      SpanIds.subagent('s', 'x'),
      SpanIds.modelCall('x'),
      SpanIds.tool('s', 'x'),
      SpanIds.approval('x'),
      SpanIds.hook('s', 'x'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(SpanIds.tool('s', 'x')).toBe(SpanIds.tool('s', 'x'));
  });

  it('never makes an all-zero id, over many names', () => {
    for (let i = 0; i < 200; i += 1) {
      expect(traceIdOf(String(i))).not.toMatch(/^0+$/);
      expect(spanIdOf(String(i))).not.toMatch(/^0+$/);
    }
  });
});

describe('openTrace', () => {
  it("nests under the caller's span in the caller's trace when a traceparent came", () => {
    expect(openTrace('aaaaaaaaaaaaaaaa', 'run:r1', { traceId: TRACE, spanId: SPAN, sampled: true })).toEqual({
      traceId: TRACE,
      spanId: 'aaaaaaaaaaaaaaaa',
      parentSpanId: SPAN,
    });
  });

  it('starts a trace of its own, derived from the key, without one', () => {
    expect(openTrace('aaaaaaaaaaaaaaaa', 'run:r1')).toEqual({ traceId: traceIdOf('run:r1'), spanId: 'aaaaaaaaaaaaaaaa' });
    expect(openTrace('aaaaaaaaaaaaaaaa', 'run:r1').traceId).toBe(openTrace('bbbbbbbbbbbbbbbb', 'run:r1').traceId);
  });
});

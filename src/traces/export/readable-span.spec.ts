import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { hrTimeOf, MalformedSpanRowError, readableSpanOf, type TraceSpanRow } from './readable-span';

const origin = { resource: resourceFromAttributes({ 'service.name': 'switchboard' }), scope: { name: 'switchboard', version: '0.1.0' } };

function row(overrides: Partial<TraceSpanRow> = {}): TraceSpanRow {
  return {
    spanId: '1111111111111111',
    traceId: 'a'.repeat(32),
    parentSpanId: null,
    name: 'chat gpt-test',
    kind: 'client',
    startTime: '2026-11-28T04:00:00.123Z',
    endTime: '2026-11-28T04:00:02.5Z',
    statusCode: 'ok',
    statusMessage: null,
    attributes: JSON.stringify({ 'gen_ai.usage.input_tokens': 12, 'gen_ai.response.finish_reasons': ['stop'], 'x.flag': true }),
    events: '[]',
    openedPosition: 10,
    endedPosition: 12,
    exportedAt: null,
    claimedBy: null,
    claimedUntil: null,
    ...overrides,
  };
}

describe('readableSpanOf', () => {
  it('keeps the recorded ids, kind and times (ns) of the row', () => {
    const span = readableSpanOf(row(), origin);
    expect(span.spanContext()).toEqual({ traceId: 'a'.repeat(32), spanId: '1111111111111111', traceFlags: 1 });
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.startTime).toEqual([Date.UTC(2026, 10, 28, 4, 0, 0) / 1000, 123_000_000]);
    expect(span.endTime).toEqual([Date.UTC(2026, 10, 28, 4, 0, 2) / 1000, 500_000_000]);
    expect(span.duration).toEqual([2, 377_000_000]);
    expect(span.ended).toBe(true);
    expect(span.resource).toBe(origin.resource);
    expect(span.instrumentationScope).toBe(origin.scope);
  });

  it("names a parent from outside Switchboard (a caller's span) in the same trace", () => {
    const span = readableSpanOf(row({ parentSpanId: 'bbbbbbbbbbbbbbbb' }), origin);
    expect(span.parentSpanContext).toEqual({ traceId: 'a'.repeat(32), spanId: 'bbbbbbbbbbbbbbbb', traceFlags: 1 });
  });

  it('maps status codes, with the message of an error', () => {
    expect(readableSpanOf(row({ statusCode: 'error', statusMessage: 'interrupted' }), origin).status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'interrupted',
    });
    expect(readableSpanOf(row({ statusCode: 'unset' }), origin).status).toEqual({ code: SpanStatusCode.UNSET });
    expect(readableSpanOf(row({ kind: 'internal' }), origin).kind).toBe(SpanKind.INTERNAL);
    expect(readableSpanOf(row({ kind: 'server' }), origin).kind).toBe(SpanKind.SERVER);
  });

  it('takes attribute values OpenTelemetry accepts as they are, objects and mixed lists as JSON text, nulls dropped', () => {
    const attributes = JSON.stringify({
      s: 'text',
      n: 1.5,
      b: false,
      list: ['a', 'b'],
      numbers: [1, 2],
      object: { role: 'user' },
      mixed: [1, 'a'],
      none: null,
    });
    expect(readableSpanOf(row({ attributes }), origin).attributes).toEqual({
      s: 'text',
      n: 1.5,
      b: false,
      list: ['a', 'b'],
      numbers: [1, 2],
      object: '{"role":"user"}',
      mixed: '[1,"a"]',
    });
  });

  it('turns stored span events into timed events', () => {
    const events = JSON.stringify([
      { name: 'session.steered', time: '2026-11-28T04:00:01.000000250Z', attributes: { by: 'ada' } },
      { name: 'run.stopped', time: '2026-11-28T04:00:02Z' },
    ]);
    expect(readableSpanOf(row({ events }), origin).events).toEqual([
      { name: 'session.steered', time: [Date.UTC(2026, 10, 28, 4, 0, 1) / 1000, 250], attributes: { by: 'ada' } },
      { name: 'run.stopped', time: [Date.UTC(2026, 10, 28, 4, 0, 2) / 1000, 0], attributes: {} },
    ]);
  });

  it('never ends a span before it starts (two clocks a little apart)', () => {
    const span = readableSpanOf(row({ startTime: '2026-11-28T04:00:01Z', endTime: '2026-11-28T04:00:00.900Z' }), origin);
    expect(span.endTime).toEqual(span.startTime);
    expect(span.duration).toEqual([0, 0]);
  });

  it('gives the same span for the same row, however often it is read', () => {
    const plain = (r: TraceSpanRow) => {
      const { spanContext, ...rest } = readableSpanOf(r, origin);
      return { ...rest, context: spanContext() };
    };
    expect(plain(row())).toEqual(plain(row()));
  });

  it('refuses a row it cannot send, saying which and why', () => {
    expect(() => readableSpanOf(row({ traceId: 'nothex' }), origin)).toThrow(MalformedSpanRowError);
    expect(() => readableSpanOf(row({ parentSpanId: 'short' }), origin)).toThrow(/parent span id "short"/);
    expect(() => readableSpanOf(row({ attributes: '{' }), origin)).toThrow(/trace span 1111111111111111 cannot be exported: its attributes are not JSON/);
    expect(() => readableSpanOf(row({ events: '[{"name":"x"}]' }), origin)).toThrow(/an event has no name or time/);
    expect(() => readableSpanOf(row({ endTime: 'later' }), origin)).toThrow(/is not an ISO time/);
  });
});

describe('hrTimeOf', () => {
  it('keeps up to nanoseconds of the fraction and honours an offset', () => {
    expect(hrTimeOf('1970-01-01T00:00:01.123456789Z')).toEqual([1, 123_456_789]);
    expect(hrTimeOf('1970-01-01T01:00:01.5+01:00')).toEqual([1, 500_000_000]);
    expect(hrTimeOf('1970-01-01T00:00:01Z')).toEqual([1, 0]);
    expect(hrTimeOf('not a time')).toBeUndefined();
  });
});

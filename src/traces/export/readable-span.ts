import { type Attributes, type AttributeValue, type HrTime, SpanKind, type SpanStatus, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { ReadTables } from '../../database';

/** An ended row of `trace_spans`, as the exporter reads it. */
export type TraceSpanRow = ReadTables['traceSpans']['$inferSelect'];

/** Who sent the spans: the process's resource and Switchboard's instrumentation scope. */
export interface SpanOrigin {
  resource: Resource;
  scope: InstrumentationScope;
}

const KINDS: Record<string, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};
const STATUS_CODES: Record<string, SpanStatusCode> = { unset: SpanStatusCode.UNSET, ok: SpanStatusCode.OK, error: SpanStatusCode.ERROR };
const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ISO_FRACTION = /\.(\d+)/;

/** A row the exporter cannot send as it is (a bug in what wrote it): said once, then set aside. */
export class MalformedSpanRowError extends Error {
  constructor(
    readonly spanId: string,
    problem: string,
  ) {
    super(`trace span ${spanId} cannot be exported: ${problem}`);
    this.name = 'MalformedSpanRowError';
  }
}

/** An ISO-8601 time as [seconds, nanoseconds], keeping every fraction digit it has (up to ns). */
export function hrTimeOf(iso: string): HrTime | undefined {
  const fraction = ISO_FRACTION.exec(iso)?.[1] ?? '';
  const wholeMs = Date.parse(iso.replace(ISO_FRACTION, ''));
  if (Number.isNaN(wholeMs)) return undefined;
  return [Math.floor(wholeMs / 1000), Number(fraction.slice(0, 9).padEnd(9, '0'))];
}

function minus(end: HrTime, start: HrTime): HrTime {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) {
    seconds -= 1;
    nanos += 1e9;
  }
  return [seconds, nanos];
}

const isPrimitive = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/**
 * A stored attribute value as OpenTelemetry takes it: a string, number or boolean, or a list of one of
 * them; anything else (an object, a mixed list) as its JSON text; null dropped.
 */
function attributeValueOf(value: unknown): AttributeValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (isPrimitive(value)) return value;
  if (Array.isArray(value)) {
    const kinds = new Set(value.map((item) => typeof item));
    if (value.every(isPrimitive) && kinds.size <= 1) return value as AttributeValue;
  }
  return JSON.stringify(value);
}

function attributesOf(json: unknown): Attributes {
  const attributes: Attributes = {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return attributes;
  for (const [key, value] of Object.entries(json)) {
    const converted = attributeValueOf(value);
    if (converted !== undefined) attributes[key] = converted;
  }
  return attributes;
}

function parsed(row: TraceSpanRow, column: 'attributes' | 'events'): unknown {
  try {
    return JSON.parse(row[column]);
  } catch (error) {
    throw new MalformedSpanRowError(row.spanId, `its ${column} are not JSON (${(error as Error).message})`);
  }
}

function eventsOf(row: TraceSpanRow): TimedEvent[] {
  const events = parsed(row, 'events');
  if (!Array.isArray(events)) throw new MalformedSpanRowError(row.spanId, 'its events are not a JSON array');
  return events.flatMap((event: { name?: unknown; time?: unknown; attributes?: unknown }) => {
    const time = typeof event?.time === 'string' ? hrTimeOf(event.time) : undefined;
    if (typeof event?.name !== 'string' || !time) throw new MalformedSpanRowError(row.spanId, `an event has no name or time: ${JSON.stringify(event)}`);
    return [{ name: event.name, time, attributes: attributesOf(event.attributes) }];
  });
}

/**
 * An ended row as the span the official OTLP exporters encode: the recorded ids, times (ns), kind,
 * status, attributes and span events, under the given resource and scope. The same row gives the
 * same span however often it is sent (nothing here reads a clock or draws an id).
 */
export function readableSpanOf(row: TraceSpanRow, origin: SpanOrigin): ReadableSpan {
  if (!TRACE_ID.test(row.traceId)) throw new MalformedSpanRowError(row.spanId, `trace id "${row.traceId}" is not 32 lower-case hex digits`);
  if (!SPAN_ID.test(row.spanId)) throw new MalformedSpanRowError(row.spanId, 'its span id is not 16 lower-case hex digits');
  if (row.parentSpanId !== null && !SPAN_ID.test(row.parentSpanId)) {
    throw new MalformedSpanRowError(row.spanId, `parent span id "${row.parentSpanId}" is not 16 lower-case hex digits`);
  }
  const startTime = hrTimeOf(row.startTime);
  const recordedEnd = row.endTime === null ? undefined : hrTimeOf(row.endTime);
  if (!startTime || !recordedEnd) throw new MalformedSpanRowError(row.spanId, `start "${row.startTime}" or end "${row.endTime}" is not an ISO time`);
  // Clocks of two processes can disagree by a little: a span never ends before it starts.
  const endTime = minus(recordedEnd, startTime)[0] < 0 ? startTime : recordedEnd;
  const status: SpanStatus = { code: STATUS_CODES[row.statusCode] ?? SpanStatusCode.UNSET };
  if (row.statusMessage) status.message = row.statusMessage;
  const context = { traceId: row.traceId, spanId: row.spanId, traceFlags: TraceFlags.SAMPLED };
  return {
    name: row.name,
    kind: KINDS[row.kind] ?? SpanKind.INTERNAL,
    spanContext: () => context,
    parentSpanContext: row.parentSpanId === null ? undefined : { traceId: row.traceId, spanId: row.parentSpanId, traceFlags: TraceFlags.SAMPLED },
    startTime,
    endTime,
    duration: minus(endTime, startTime),
    status,
    attributes: attributesOf(parsed(row, 'attributes')),
    events: eventsOf(row),
    links: [],
    ended: true,
    resource: origin.resource,
    instrumentationScope: origin.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

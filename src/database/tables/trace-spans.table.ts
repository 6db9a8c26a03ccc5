import { column, table } from '../table-description';

/**
 * Read model (issue 28): the spans the `trace-spans` projection folds out of the log, one row per span,
 * open (`end_time` null) until the event that ends it. The exporter sends the ended rows it has not
 * sent (`exported_at` null) over OTLP and stamps them; a row once exported is never changed again, so
 * a span id never goes out with two different contents. Rebuilt from the log, a span has the same ids
 * and content (ids derive from the events: `src/common/trace-context.ts`).
 */
export const traceSpans = table(
  'trace_spans',
  {
    spanId: column.text().primaryKey(),
    traceId: column.text().notNull(),
    /** The parent span: another row, or a caller's span outside Switchboard; null for a trace's root. */
    parentSpanId: column.text(),
    name: column.text().notNull(),
    /** OpenTelemetry SpanKind: `internal`, `client`, `server`. */
    kind: column.text().notNull(),
    /** ISO-8601 times as recorded (the events' `recorded_at`, or a recorded duration before it). */
    startTime: column.text().notNull(),
    endTime: column.text(),
    /** `unset`, `ok` or `error`, and the error's message. */
    statusCode: column.text().notNull(),
    statusMessage: column.text(),
    /** JSON object of span attributes (string, number, boolean or arrays of them). */
    attributes: column.text().notNull(),
    /** JSON array of span events: `{name, time, attributes}`. */
    events: column.text().notNull(),
    /** Global position of the event that opened it, and of the one that ended it: the export order. */
    openedPosition: column.bigint().notNull(),
    endedPosition: column.bigint(),
    /** Set when an instance has sent it to the collector (then the row is final). */
    exportedAt: column.text(),
    /** The instance exporting it now and until when its claim holds (several instances on PostgreSQL). */
    claimedBy: column.text(),
    claimedUntil: column.text(),
  },
  { indexes: { trace_spans_waiting_idx: ['exportedAt', 'endedPosition'], trace_spans_trace_idx: ['traceId'] } },
);

/**
 * Read model (issue 28): what the `trace-spans` projection knows of each session to place what happens
 * in it: the trace and span its work nests under now (the current turn's span, or the run's span on a
 * run's thread), the agent it runs, and the run it is the thread of.
 */
export const traceSessionContexts = table('trace_session_contexts', {
  sessionId: column.text().primaryKey(),
  traceId: column.text(),
  spanId: column.text(),
  agentId: column.text(),
  agentName: column.text(),
  /** Set for a run's thread (`sub-agent-<runId>`). */
  runId: column.text(),
  /** JSON: the session's sub-agent names when its agent leads a team (the turn is then an `invoke_workflow`). */
  team: column.text(),
});

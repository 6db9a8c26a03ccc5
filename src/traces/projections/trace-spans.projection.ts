import { Inject, Logger, Optional } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../config';
import type { ReadModelDatabase } from '../../database';
import type { StoredEvent } from '../../event-store';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, one, run } from '../../projections';
import {
  type Attributes,
  type SessionContext,
  type SpanEvent,
  type SpanKind,
  type SpanRow,
  type SpanStatusCode,
  TRACE_EVENT_TYPES,
  sessionsNeeded,
  spanChangesOf,
  spansNeeded,
} from './trace-span-mapping';

type StoredSpan = typeof import('../../database/schema-pg').traceSpans.$inferSelect;
type StoredContext = typeof import('../../database/schema-pg').traceSessionContexts.$inferSelect;

function parsed<T>(json: string | null, fallback: T): T {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

function spanOfRow({ claimedBy: _by, claimedUntil: _until, ...row }: StoredSpan): SpanRow {
  return {
    ...row,
    kind: row.kind as SpanKind,
    statusCode: row.statusCode as SpanStatusCode,
    attributes: parsed<Attributes>(row.attributes, {}),
    events: parsed<SpanEvent[]>(row.events, []),
  };
}

/** The row's columns but the export claim, which is the exporter's. */
function rowOfSpan(span: SpanRow): Omit<StoredSpan, 'claimedBy' | 'claimedUntil'> {
  return { ...span, attributes: JSON.stringify(span.attributes), events: JSON.stringify(span.events) };
}

function contextOfRow(row: StoredContext): SessionContext {
  return { ...row, team: parsed<string[] | null>(row.team, null) };
}

/**
 * issue 28, async: the log folded into OpenTelemetry GenAI spans (`trace_spans`) and what it knows of
 * each session to place them (`trace_session_contexts`). What an event means for the spans is
 * `trace-span-mapping.ts`; this reads the rows it names and writes its changes. A span the exporter
 * has sent is never changed again: a late event for it is dropped (debug-logged). Registered only
 * with `SWITCHBOARD_TRACES=on` (TracesModule).
 */
@ReadModelProjection()
export class TraceSpansProjection extends PerEventProjection {
  readonly name = 'trace-spans';
  readonly mode = 'async';
  readonly tables = ['traceSpans', 'traceSessionContexts'] as const;
  readonly eventTypes: readonly string[] = TRACE_EVENT_TYPES;
  private readonly logger = new Logger(TraceSpansProjection.name);
  private readonly content: boolean;

  constructor(@Optional() @Inject(SWITCHBOARD_CONFIG) config?: SwitchboardConfig) {
    super();
    this.content = config?.traces.content ?? false;
  }

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    const { traceSpans, traceSessionContexts } = db.tables;
    const contexts = new Map<string, SessionContext>();
    for (const sessionId of new Set(sessionsNeeded(event))) {
      const row = yield* one(db.orm.select().from(traceSessionContexts).where(eq(traceSessionContexts.sessionId, sessionId)));
      if (row) contexts.set(sessionId, contextOfRow(row));
    }
    const spans = new Map<string, SpanRow>();
    for (const spanId of new Set(spansNeeded(event, (id) => contexts.get(id)))) {
      const row = yield* one(db.orm.select().from(traceSpans).where(eq(traceSpans.spanId, spanId)));
      if (row) spans.set(spanId, spanOfRow(row));
    }
    const changes = spanChangesOf(event, { context: (id) => contexts.get(id), span: (id) => spans.get(id) }, { content: this.content });
    for (const change of changes) {
      switch (change.kind) {
        case 'open':
          yield* run(db.orm.insert(traceSpans).values(rowOfSpan(change.span)).onConflictDoNothing());
          break;
        case 'update': {
          const { spanId, ...rest } = rowOfSpan(change.span);
          // Never over an exported row: the exporter may have stamped it since it was read.
          yield* run(
            db.orm
              .update(traceSpans)
              .set(rest)
              .where(and(eq(traceSpans.spanId, spanId), isNull(traceSpans.exportedAt))),
          );
          break;
        }
        case 'context': {
          const row = { ...change.context, team: change.context.team ? JSON.stringify(change.context.team) : null };
          const { sessionId: _sessionId, ...set } = row;
          yield* run(db.orm.insert(traceSessionContexts).values(row).onConflictDoUpdate({ target: traceSessionContexts.sessionId, set }));
          break;
        }
        case 'dropped':
          this.logger.debug(`${event.type} at ${event.globalPosition} left span ${change.spanId} alone: ${change.reason}`);
          break;
      }
    }
  }
}

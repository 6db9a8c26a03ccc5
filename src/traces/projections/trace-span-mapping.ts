import type { StoredEvent } from '../../event-store';
import { approvalSpans } from './span-mappings/approval-spans';
import { childSessionSpans } from './span-mappings/child-session-spans';
import { modelCallSpans } from './span-mappings/model-call-spans';
import { pauseSpans } from './span-mappings/pause-spans';
import { routedRequestSpans } from './span-mappings/routed-request-spans';
import { runSpans } from './span-mappings/run-spans';
import { sessionSpans } from './span-mappings/session-spans';
import { Changes, type ContextSpanMapping, type SpanChange, type TraceMappingOptions, type TraceState, sessionOf } from './span-mappings/span-building';

export type {
  AttributeValue,
  Attributes,
  SessionContext,
  SpanChange,
  SpanEvent,
  SpanKind,
  SpanRow,
  SpanStatusCode,
  TraceMappingOptions,
  TraceState,
} from './span-mappings/span-building';
export { inputMessagesOfRequest, outputMessagesOfAnswer } from './span-mappings/model-call-messages';

/**
 * issue 28: the pure part of the `trace-spans` projection. One event, with the rows it concerns (the
 * session contexts and spans `sessionsNeeded`/`spansNeeded` name), becomes the changes to make: spans to
 * open, spans to change (end, attributes, span events), session contexts to keep. No database here, no
 * clock, no randomness: the same log folds into the same spans, ids included (`SpanIds`).
 *
 * issue 40: one mapping per source context (`span-mappings/<context>-spans.ts`), each reading its
 * context's events through the reader that context exports: a renamed payload field does not compile.
 */
const MAPPINGS: readonly ContextSpanMapping[] = [sessionSpans, runSpans, childSessionSpans, modelCallSpans, routedRequestSpans, approvalSpans, pauseSpans];

const MAPPING_OF = new Map<string, ContextSpanMapping>(MAPPINGS.flatMap((mapping) => mapping.types.map((type) => [type, mapping] as const)));

/** The event types the projection reads (CLI records by their stored `cli.<type>`). */
export const TRACE_EVENT_TYPES: readonly string[] = MAPPINGS.flatMap((mapping) => mapping.types);

const known = (ids: ReadonlyArray<string | undefined>): string[] => ids.filter((id): id is string => id !== undefined);

/** The session ids whose contexts `spanChangesOf` reads for this event. */
export function sessionsNeeded(event: StoredEvent): string[] {
  return known(MAPPING_OF.get(event.type)?.sessionsNeeded(event) ?? [sessionOf(event)]);
}

/** The span ids whose rows `spanChangesOf` reads, once the contexts are known. */
export function spansNeeded(event: StoredEvent, contexts: TraceState['context']): string[] {
  const current = (id: string | undefined) => (id ? (contexts(id)?.spanId ?? undefined) : undefined);
  return known(MAPPING_OF.get(event.type)?.spansNeeded(event, current) ?? []);
}

/** What one event changes in the spans and session contexts. Never throws on an old or odd event: it maps what it can. */
export function spanChangesOf(event: StoredEvent, state: TraceState, options: TraceMappingOptions): SpanChange[] {
  const changes = new Changes(state);
  MAPPING_OF.get(event.type)?.map(event, state, changes, options);
  return changes.list;
}

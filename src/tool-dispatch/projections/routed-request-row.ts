import type { StoredEvent } from '../../event-store';
import type { RoutedRequestEvent } from '../routed-request.events';

const json = (v: unknown): string | null => (v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** A routed request's row as both forms of the routed-requests projection write it. */
export function routedRequestRow(event: RoutedRequestEvent & StoredEvent) {
  const d = event.data;
  return {
    globalPosition: event.globalPosition,
    parentSessionId: d.parentSessionId,
    childSessionId: d.childSessionId ?? null,
    agentName: d.agentName ?? null,
    kind: event.type,
    toolName: d.toolName ?? null,
    arguments: json(d.arguments),
    result: json(d.result),
    outcome: d.outcome,
    reason: d.reason ?? null,
    latencyMs: Math.round(d.latencyMs),
    recordedAt: event.recordedAt,
  };
}

export type RoutedRequestRow = ReturnType<typeof routedRequestRow>;

import type { ReadModelDatabase } from '../../database/read-model-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, run } from '../../projections/projection';
import { isRoutedRequestEvent, RoutedRequestEvents } from '../routed-request.events';

const json = (v: unknown): string | null => (v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** Inline: the audit table of routed requests, one row per decision or call. */
@ReadModelProjection()
export class RoutedRequestsProjection extends PerEventProjection {
  readonly name = 'routed-requests';
  readonly mode = 'inline';
  readonly tables = ['routedRequests'] as const;
  readonly eventTypes = [
    RoutedRequestEvents.toolCallRouted,
    RoutedRequestEvents.toolCallDenied,
    RoutedRequestEvents.permissionDecided,
    RoutedRequestEvents.hookInvoked,
    RoutedRequestEvents.userInputAnswered,
  ];

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (!isRoutedRequestEvent(event)) return;
    const d = event.data;
    yield* run(
      db.orm.insert(db.tables.routedRequests).values({
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
      }),
    );
  }
}

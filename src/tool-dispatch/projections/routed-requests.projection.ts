import { sql } from 'drizzle-orm';
import { routedRequests } from '../../database/schema';
import { type Orm, preparedPerConnection } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type Projection, ReadModelProjection } from '../../event-store/projection';
import { isRoutedRequestEvent, RoutedRequestEvents } from '../routed-request.events';

const json = (v: unknown): string | null => (v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** Inline: the audit table of routed requests, one row per decision or call. */
@ReadModelProjection()
export class RoutedRequestsProjection implements Projection {
  readonly name = 'routed-requests';
  readonly mode = 'inline';
  readonly tables = [routedRequests];
  readonly eventTypes = [
    RoutedRequestEvents.toolCallRouted,
    RoutedRequestEvents.toolCallDenied,
    RoutedRequestEvents.permissionDecided,
    RoutedRequestEvents.hookInvoked,
    RoutedRequestEvents.userInputAnswered,
  ];

  apply(event: StoredEvent, orm: Orm): void {
    if (!isRoutedRequestEvent(event)) return;
    const d = event.data;
    insertFor(orm).run({
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
    });
  }
}

/** One row per routed request: on the hot path of every tool call. */
const insertFor = preparedPerConnection((orm: Orm) => {
  const p = (name: string) => sql.placeholder(name);
  return orm
    .insert(routedRequests)
    .values({
      globalPosition: p('globalPosition'),
      parentSessionId: p('parentSessionId'),
      childSessionId: p('childSessionId'),
      agentName: p('agentName'),
      kind: p('kind'),
      toolName: p('toolName'),
      arguments: p('arguments'),
      result: p('result'),
      outcome: p('outcome'),
      reason: p('reason'),
      latencyMs: p('latencyMs'),
      recordedAt: p('recordedAt'),
    })
    .prepare();
});

import type { ReadModelDatabase } from '../../database';
import type { StoredEvent } from '../../event-store';
import { sql } from 'drizzle-orm';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, runPrepared } from '../../projections';
import { isRoutedRequestEvent, RoutedRequestEvents } from '../routed-request.events';
import { routedRequestRow } from './routed-request-row';
import { routedRequestsOnPostgres } from './routed-requests.pg-projection';

/** Inline: the audit table of routed requests, one row per decision or call. */
@ReadModelProjection()
export class RoutedRequestsProjection extends PerEventProjection {
  readonly name = 'routed-requests';
  readonly mode = 'inline';
  readonly tables = ['routedRequests'] as const;
  readonly setBased = { postgres: routedRequestsOnPostgres };
  readonly eventTypes = [
    RoutedRequestEvents.toolCallRouted,
    RoutedRequestEvents.toolCallDenied,
    RoutedRequestEvents.permissionDecided,
    RoutedRequestEvents.hookInvoked,
    RoutedRequestEvents.userInputAnswered,
  ];

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (!isRoutedRequestEvent(event)) return;
    // One row per routed request, inline in its append: built once per connection (runPrepared), not per call.
    yield* runPrepared(db, 'routed_requests_insert', insertRoutedRequest, routedRequestRow(event));
  }
}

/** The row insert with a placeholder per column, named as the values above. */
function insertRoutedRequest(db: ReadModelDatabase) {
  const { routedRequests } = db.tables;
  return db.orm.insert(routedRequests).values({
    globalPosition: sql.placeholder('globalPosition'),
    parentSessionId: sql.placeholder('parentSessionId'),
    childSessionId: sql.placeholder('childSessionId'),
    agentName: sql.placeholder('agentName'),
    kind: sql.placeholder('kind'),
    toolName: sql.placeholder('toolName'),
    arguments: sql.placeholder('arguments'),
    result: sql.placeholder('result'),
    outcome: sql.placeholder('outcome'),
    reason: sql.placeholder('reason'),
    latencyMs: sql.placeholder('latencyMs'),
    recordedAt: sql.placeholder('recordedAt'),
  });
}

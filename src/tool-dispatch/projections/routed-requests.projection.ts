import { Injectable, OnModuleInit } from '@nestjs/common';
import { routedRequests } from '../../database/schema';
import type { Orm } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import type { Projection } from '../../event-store/projection';
import { ProjectionRegistry } from '../../event-store/projection-registry';
import { RoutedRequestEvents, type RoutedRequestData } from '../routed-request.events';

const json = (v: unknown): string | null => (v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** Inline: the audit table of routed requests, one row per decision or call. */
@Injectable()
export class RoutedRequestsProjection implements Projection, OnModuleInit {
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

  constructor(private readonly registry: ProjectionRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  apply(event: StoredEvent, orm: Orm): void {
    const d = event.data as unknown as RoutedRequestData;
    orm
      .insert(routedRequests)
      .values({
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
      })
      .run();
  }
}

import { OnModuleDestroy } from '@nestjs/common';
import { Counter, type Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import { type MetricsContribution, ProvidesMetrics } from '../common';
import { EventStore, type StoredEvent } from '../event-store';
import { RoutedRequestEvents } from './routed-request.events';

/**
 * The audit event that ends a routed request, and the kind it counts as. `user_input.requested` is
 * left out: its `user_input.answered` (answered, timed_out, cancelled) ends the same request.
 */
const ROUTED_REQUEST_KINDS: Record<string, string> = {
  [RoutedRequestEvents.toolCallRouted]: 'tool_call',
  [RoutedRequestEvents.toolCallDenied]: 'tool_call',
  [RoutedRequestEvents.permissionDecided]: 'permission',
  [RoutedRequestEvents.hookInvoked]: 'hook',
  [RoutedRequestEvents.userInputAnswered]: 'user_input',
};

/** Requests of the CLI answered by Switchboard, counted from the committed log (every instance's). */
@ProvidesMetrics()
export class RoutedRequestMetrics implements MetricsContribution, OnModuleDestroy {
  private subscription?: Subscription;

  constructor(private readonly store: EventStore) {}

  registerMetrics(registry: Registry): void {
    const routed = new Counter({
      name: 'switchboard_routed_requests_total',
      help: 'Requests from the Copilot CLI answered by Switchboard, by kind (tool_call, permission, hook, user_input) and outcome',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    });
    this.subscription = this.store.committed$.subscribe((event) => {
      const kind = ROUTED_REQUEST_KINDS[event.type];
      if (kind) routed.inc({ kind, outcome: outcomeOf(event) });
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}

/** The request's outcome as a label: a short word, anything else `other` (labels must stay few). */
function outcomeOf(event: StoredEvent): string {
  const outcome = event.data.outcome;
  return typeof outcome === 'string' && /^[a-z][a-z_-]{0,31}$/.test(outcome) ? outcome : 'other';
}

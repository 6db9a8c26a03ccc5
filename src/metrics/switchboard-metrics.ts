import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Subscription } from 'rxjs';
import { CopilotCliConnection } from '../copilot-cli';
import { RUN_STATUSES } from '../delegation';
import { EventStore, type StoredEvent } from '../event-store';
import { InstanceLease } from '../instances';
import { AsyncProjectionRunner } from '../projections';
import { RunsReadModel } from '../run-lineage';
import { type SessionStatus, SessionsReadModel } from '../sessions';
import { RoutedRequestEvents } from '../tool-dispatch';

const SESSION_STATUSES = ['starting', 'active', 'running', 'idle', 'interrupted', 'failed', 'destroyed'] as const satisfies readonly SessionStatus[];

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

const COMMIT_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Node's process metrics (CPU, memory, event-loop lag, GC) are per process: one collector for every app in it. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The service's Prometheus metrics, in a registry of this app's own (tests run several apps in one
 * process). Counters follow the store's commits and committed events, so no writer knows about
 * metrics; gauges (projection lag, runs and sessions by status) are read when scraped.
 */
@Injectable()
export class SwitchboardMetrics implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly subscriptions = new Subscription();

  constructor(
    store: EventStore,
    runner: AsyncProjectionRunner,
    runsReadModel: RunsReadModel,
    sessionsReadModel: SessionsReadModel,
    cli: CopilotCliConnection,
    lease: InstanceLease,
  ) {
    const register = [this.registry];

    const appends = new Counter({
      name: 'switchboard_event_store_appends_total',
      help: 'Appends committed (or refused) by group commits',
      registers: register,
    });
    const refusedAppends = new Counter({
      name: 'switchboard_event_store_appends_refused_total',
      help: 'Appends a group commit refused: expected-version conflicts (retried by commands), invalid events, failing inline projections',
      registers: register,
    });
    const commits = new Counter({
      name: 'switchboard_event_store_commits_total',
      help: 'Group commits by outcome (committed, failed)',
      labelNames: ['outcome'],
      registers: register,
    });
    const commitSeconds = new Histogram({
      name: 'switchboard_event_store_commit_duration_seconds',
      help: 'Duration of one group commit transaction (fsync included with synchronous=FULL)',
      buckets: COMMIT_BUCKETS_SECONDS,
      registers: register,
    });
    const events = new Counter({ name: 'switchboard_event_store_events_total', help: 'Events committed to the log', registers: register });
    const routed = new Counter({
      name: 'switchboard_routed_requests_total',
      help: 'Requests from the Copilot CLI answered by Switchboard, by kind (tool_call, permission, hook, user_input) and outcome',
      labelNames: ['kind', 'outcome'],
      registers: register,
    });
    const cliRestarts = new Counter({
      name: 'switchboard_cli_restarts_total',
      help: 'Times the Copilot CLI exited unexpectedly and was restarted',
      registers: register,
    });
    commits.inc({ outcome: 'committed' }, 0);
    commits.inc({ outcome: 'failed' }, 0);

    this.subscriptions.add(
      store.commits$.subscribe(({ appends: count, refused, durationMs, committed }) => {
        commits.inc({ outcome: committed ? 'committed' : 'failed' });
        if (!committed) return;
        appends.inc(count);
        refusedAppends.inc(refused);
        commitSeconds.observe(durationMs / 1000);
      }),
    );
    this.subscriptions.add(
      store.committed$.subscribe((event) => {
        events.inc();
        const kind = ROUTED_REQUEST_KINDS[event.type];
        if (kind) routed.inc({ kind, outcome: outcomeOf(event) });
      }),
    );
    this.subscriptions.add(cli.exits$.subscribe(() => cliRestarts.inc()));

    new Gauge({
      name: 'switchboard_event_store_head_position',
      help: 'Global position of the newest committed event',
      registers: register,
      async collect() {
        this.set(await store.headPosition());
      },
    });
    new Gauge({
      name: 'switchboard_projection_lag_events',
      help: 'Committed events an async projection has not applied yet',
      labelNames: ['projection'],
      registers: register,
      async collect() {
        for (const { name, lag } of await runner.status()) this.set({ projection: name }, lag);
      },
    });
    // prom-client calls collect() with the gauge as `this` and awaits it: read models are read at scrape.
    new Gauge({
      name: 'switchboard_runs',
      help: 'Runs by status (runs read model)',
      labelNames: ['status'],
      registers: register,
      async collect() {
        setByStatus(this, RUN_STATUSES, await runsReadModel.countByStatus());
      },
    });
    new Gauge({
      name: 'switchboard_sessions',
      help: 'Sessions by status (sessions read model)',
      labelNames: ['status'],
      registers: register,
      async collect() {
        setByStatus(this, SESSION_STATUSES, await sessionsReadModel.countByStatus());
      },
    });
    new Gauge({
      name: 'switchboard_instances_live',
      help: 'Switchboard instances with a live lease on the database, this one included',
      registers: register,
      async collect() {
        this.set((await lease.liveInstances()).length);
      },
    });
    new Gauge({
      name: 'switchboard_cli_up',
      help: '1 while the Copilot CLI is connected (it starts with the first session)',
      registers: register,
      collect() {
        this.set(cli.isRunning ? 1 : 0);
      },
    });
  }

  /** The exposition text: this app's metrics and the process's. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }

  onModuleDestroy(): void {
    this.subscriptions.unsubscribe();
  }
}

/** One statement per scrape; every known status is shown, 0 when none. */
function setByStatus(gauge: Gauge<'status'>, known: readonly string[], rows: Array<{ status: string; count: number }>): void {
  const counts = new Map<string, number>(known.map((status) => [status, 0]));
  for (const row of rows) counts.set(row.status, row.count);
  gauge.reset();
  for (const [status, count] of counts) gauge.set({ status }, count);
}

/** The request's outcome as a label: a short word, anything else `other` (labels must stay few). */
function outcomeOf(event: StoredEvent): string {
  const outcome = event.data.outcome;
  return typeof outcome === 'string' && /^[a-z][a-z_-]{0,31}$/.test(outcome) ? outcome : 'other';
}

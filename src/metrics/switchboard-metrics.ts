import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Subscription } from 'rxjs';
import { contributionsTo, METRICS_SLOT, type MetricsContribution } from '../common';
import { EventStore } from '../event-store';
import { AsyncProjectionRunner } from '../projections';

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
 * process). The kernel's own (the event store's commits, the projections' lag) are here; each context
 * adds its own through the `@ProvidesMetrics()` slot (`src/common/metrics-contribution.ts`), found at
 * init, so this module names no context. Counters follow the store's commits and committed events, so
 * no writer knows about metrics; gauges are read when scraped.
 */
@Injectable()
export class SwitchboardMetrics implements OnModuleInit, OnModuleDestroy {
  readonly registry = new Registry();
  private readonly subscriptions = new Subscription();

  constructor(
    store: EventStore,
    runner: AsyncProjectionRunner,
    private readonly discovery: DiscoveryService,
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
    this.subscriptions.add(store.committed$.subscribe(() => events.inc()));

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
  }

  /** Every context's metrics, in the same registry (each contributor feeds its own). */
  onModuleInit(): void {
    for (const contribution of contributionsTo<MetricsContribution>(this.discovery, METRICS_SLOT)) contribution.registerMetrics(this.registry);
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

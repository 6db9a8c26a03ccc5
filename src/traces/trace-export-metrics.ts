import { OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import { type MetricsContribution, ProvidesMetrics } from '../common';
import { TraceExport } from './trace-export';

/**
 * issue 28: the spans this instance sent to the OTLP collector, and those of attempts that failed
 * (retried: a span can count as failed several times before it is exported once), and the ended
 * spans waiting (the database's count, read at scrape). With traces off the traces module provides
 * nothing, this included, so nothing is registered.
 */
@ProvidesMetrics()
export class TraceExportMetrics implements MetricsContribution, OnModuleDestroy {
  private subscription?: Subscription;

  constructor(private readonly traces: TraceExport) {}

  registerMetrics(registry: Registry): void {
    const traces = this.traces;
    const registers = [registry];
    const spans = new Counter({
      name: 'switchboard_trace_spans_exported_total',
      help: 'Trace spans this instance sent over OTLP, by outcome (exported; failed: an attempt the collector did not take, retried)',
      labelNames: ['outcome'],
      registers,
    });
    spans.inc({ outcome: 'exported' }, 0);
    spans.inc({ outcome: 'failed' }, 0);
    new Gauge({
      name: 'switchboard_trace_spans_waiting',
      help: 'Ended trace spans no instance has exported yet',
      registers,
      async collect() {
        this.set((await traces.status()).waiting);
      },
    });
    this.subscription = traces.outcomes$.subscribe(({ spans: count, outcome }) => spans.inc({ outcome }, count));
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}

import { Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import type { Subscription } from 'rxjs';
import { TraceExport } from '../traces';
import { SwitchboardMetrics } from './switchboard-metrics';

/**
 * issue 28: the spans this instance sent to the OTLP collector, and those of attempts that failed
 * (retried: a span can count as failed several times before it is exported once), and the ended
 * spans waiting (the database's count, read at scrape). Nothing is registered with traces off.
 */
@Injectable()
export class TraceExportMetrics implements OnModuleDestroy {
  private readonly subscription?: Subscription;

  constructor(metrics: SwitchboardMetrics, @Optional() traces?: TraceExport) {
    if (!traces) return;
    const registers = [metrics.registry];
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

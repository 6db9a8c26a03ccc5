import type { Gauge, Registry } from 'prom-client';
import { Contributes } from './contributions';

/** The slot through which a context adds its Prometheus metrics to the app's registry (`/metrics`). */
export const METRICS_SLOT = 'switchboard:metrics';

/**
 * A context's metrics: the metrics module calls `registerMetrics` once at init with the app's registry
 * (one per app: tests run several apps in one process); the contributor creates its counters and gauges
 * there and feeds them from its own streams. It stops feeding them in its own `onModuleDestroy`.
 */
export interface MetricsContribution {
  registerMetrics(registry: Registry): void;
}

/** Marks a provider as a `MetricsContribution`, found through discovery wherever it is declared. */
export const ProvidesMetrics = (): ClassDecorator => Contributes(METRICS_SLOT);

/** A gauge by status, set at a scrape from one read: every known status is shown, 0 when none. */
export function setGaugeByStatus(gauge: Gauge<'status'>, known: readonly string[], rows: Array<{ status: string; count: number }>): void {
  const counts = new Map<string, number>(known.map((status) => [status, 0]));
  for (const row of rows) counts.set(row.status, row.count);
  gauge.reset();
  for (const [status, count] of counts) gauge.set({ status }, count);
}

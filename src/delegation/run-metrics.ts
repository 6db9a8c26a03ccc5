import { Gauge, type Registry } from 'prom-client';
import { type MetricsContribution, ProvidesMetrics, setGaugeByStatus } from '../common';
import { RunsReadModel } from '../run-lineage';
import { RUN_STATUSES } from './run.events';

/** Runs by status, read from the `runs` read model at each scrape. */
@ProvidesMetrics()
export class RunMetrics implements MetricsContribution {
  constructor(private readonly runs: RunsReadModel) {}

  registerMetrics(registry: Registry): void {
    const runs = this.runs;
    new Gauge({
      name: 'switchboard_runs',
      help: 'Runs by status (runs read model)',
      labelNames: ['status'],
      registers: [registry],
      async collect() {
        setGaugeByStatus(this, RUN_STATUSES, await runs.countByStatus());
      },
    });
  }
}

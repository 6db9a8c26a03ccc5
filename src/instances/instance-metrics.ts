import { Gauge, type Registry } from 'prom-client';
import { type MetricsContribution, ProvidesMetrics } from '../common';
import { InstanceLease } from './instance-lease';

/** The instances sharing this database, read from their leases at each scrape. */
@ProvidesMetrics()
export class InstanceMetrics implements MetricsContribution {
  constructor(private readonly lease: InstanceLease) {}

  registerMetrics(registry: Registry): void {
    const lease = this.lease;
    new Gauge({
      name: 'switchboard_instances_live',
      help: 'Switchboard instances with a live lease on the database, this one included',
      registers: [registry],
      async collect() {
        this.set((await lease.liveInstances()).length);
      },
    });
  }
}

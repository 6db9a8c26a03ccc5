import { Global, Module } from '@nestjs/common';
import { InstanceLease } from './instance-lease';
import { LeaseMonitor } from './lease-monitor';
import { InstanceMetrics } from './instance-metrics';

/**
 * Several instances on one database (issue 15): each holds a lease (`instance_leases`), owns the
 * sessions it takes live and their runs, and takes over the work of instances whose lease expired.
 * Global: sessions (`HeldWork`) and delegation (`HeldRuns`) ask its lease who holds what; it imports neither.
 */
@Global()
@Module({
  providers: [InstanceLease, LeaseMonitor, InstanceMetrics],
  exports: [InstanceLease, LeaseMonitor],
})
export class InstancesModule {}

import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { HttpMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { SwitchboardMetrics } from './switchboard-metrics';
import { MetricsAccess } from './metrics.access';

/**
 * Prometheus metrics at /metrics: one registry per app, fed by the event store, the projections and HTTP,
 * and by every context's `@ProvidesMetrics()` contribution (sessions, runs, routed requests, the CLI,
 * instances, model calls, trace export), found at init.
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [MetricsController],
  providers: [MetricsAccess, SwitchboardMetrics, HttpMetrics],
  exports: [HttpMetrics],
})
export class MetricsModule {}

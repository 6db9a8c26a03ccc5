import { Module } from '@nestjs/common';
import { RunLineageModule } from '../run-lineage/run-lineage.module';
import { SessionsModule } from '../sessions/sessions.module';
import { HttpMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { SwitchboardMetrics } from './switchboard-metrics';

/** Prometheus metrics at /metrics: one registry per app, fed by the event store, the CLI and HTTP. */
@Module({
  imports: [RunLineageModule, SessionsModule],
  controllers: [MetricsController],
  providers: [SwitchboardMetrics, HttpMetrics],
  exports: [HttpMetrics],
})
export class MetricsModule {}

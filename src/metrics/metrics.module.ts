import { Module } from '@nestjs/common';
import { ModelCallsModule } from '../model-calls';
import { RunLineageModule } from '../run-lineage';
import { SessionsModule } from '../sessions';
import { HttpMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { ModelCallMetrics } from './model-call-metrics';
import { SwitchboardMetrics } from './switchboard-metrics';
import { TraceExportMetrics } from './trace-export-metrics';
import { MetricsAccess } from './metrics.access';

/** Prometheus metrics at /metrics: one registry per app, fed by the event store, the CLI, the model route, HTTP and the trace exporter. */
@Module({
  imports: [RunLineageModule, SessionsModule, ModelCallsModule],
  controllers: [MetricsController],
  providers: [MetricsAccess, SwitchboardMetrics, HttpMetrics, ModelCallMetrics, TraceExportMetrics],
  exports: [HttpMetrics],
})
export class MetricsModule {}

import { type DynamicModule, Module } from '@nestjs/common';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { TraceSpansProjection } from './projections/trace-spans.projection';

/**
 * issue 28: the traces context. The log folded into OpenTelemetry GenAI spans (`trace_spans`, an async
 * projection: checkpointed, rebuildable) and an exporter that sends ended spans over OTLP/HTTP. Off
 * (`SWITCHBOARD_TRACES` unset) nothing of it is loaded: no projection registered, nothing exported.
 */
@Module({})
export class TracesModule {
  static forRoot(config: SwitchboardConfig): DynamicModule {
    if (!config.traces.enabled) return { module: TracesModule };
    return { module: TracesModule, providers: [TraceSpansProjection] };
  }
}

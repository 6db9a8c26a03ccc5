import { type DynamicModule, Module } from '@nestjs/common';
import type { SwitchboardConfig } from '../config';
import { type OtlpExportSettings, otlpExportSettingsFrom } from './export/otlp-export-settings';
import { OTLP_EXPORT_SETTINGS, TRACE_EXPORTER_OPTIONS, TraceExporter, traceExporterOptions } from './export/trace-exporter';
import { TraceSpansProjection } from './projections/trace-spans.projection';
import { TraceExport } from './trace-export';
import { TraceExportMetrics } from './trace-export-metrics';

/**
 * issue 28: the traces context. The log folded into OpenTelemetry GenAI spans (`trace_spans`, an async
 * projection: checkpointed, rebuildable) and an exporter that sends ended spans over OTLP/HTTP. Off
 * (`SWITCHBOARD_TRACES` unset) nothing of it is loaded: no projection registered, nothing exported.
 * Global when on: health reads the exporter through the `TraceExport` port, `@Optional()`; its metrics are
 * contributed to `/metrics` (`TraceExportMetrics`).
 */
@Module({})
export class TracesModule {
  static forRoot(config: SwitchboardConfig, env: NodeJS.ProcessEnv = process.env): DynamicModule {
    if (!config.traces.enabled) return { module: TracesModule };
    // Read at start like the rest of the configuration: a protocol it cannot speak stops the start.
    const settings = otlpExportSettingsFrom(env);
    return {
      module: TracesModule,
      global: true,
      providers: [
        { provide: OTLP_EXPORT_SETTINGS, useValue: settings },
        { provide: TRACE_EXPORTER_OPTIONS, inject: [OTLP_EXPORT_SETTINGS], useFactory: (s: OtlpExportSettings) => traceExporterOptions(s) },
        TraceSpansProjection,
        TraceExporter,
        { provide: TraceExport, useExisting: TraceExporter },
        TraceExportMetrics,
      ],
      exports: [TraceExport],
    };
  }
}

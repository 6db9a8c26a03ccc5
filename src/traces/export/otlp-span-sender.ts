import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { OtlpExportSettings } from './otlp-export-settings';

/** Sends one batch of spans; resolves once the collector took them, rejects with why it did not. */
export interface SpanSender {
  send(spans: ReadableSpan[]): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The official OTLP/HTTP exporter for the configured protocol. It reads the endpoint, headers and
 * compression from the standard OTEL_EXPORTER_OTLP_* variables itself; the timeout is always passed
 * (the variable's value, or Switchboard's shorter default) so an attempt ends when the claim expects it.
 */
export function otlpSpanSender(settings: OtlpExportSettings): SpanSender {
  const options = { timeoutMillis: settings.timeoutMs, ...(settings.url ? { url: settings.url } : {}) };
  const exporter: SpanExporter = settings.protocol === 'http/json' ? new JsonTraceExporter(options) : new ProtobufTraceExporter(options);
  // The exporter's callback ends every export within its timeout; this only guards against one that never calls back.
  const guardMs = settings.timeoutMs * 2 + 1_000;
  return {
    send: (spans) =>
      new Promise<void>((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error(`the OTLP exporter did not answer within ${guardMs} ms`)), guardMs);
        guard.unref();
        exporter.export(spans, (result) => {
          clearTimeout(guard);
          if (result.code === ExportResultCode.SUCCESS) resolve();
          else reject(result.error ?? new Error('the OTLP export failed'));
        });
      }),
    shutdown: () => exporter.shutdown(),
  };
}

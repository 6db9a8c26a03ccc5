import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
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
export function otlpSpanSender(settings: OtlpExportSettings, env: NodeJS.ProcessEnv = process.env): SpanSender {
  const options = {
    timeoutMillis: settings.timeoutMs,
    ...(settings.url ? { url: settings.url } : {}),
    httpAgentOptions: (protocol: string) => collectorAgent(protocol, env),
  };
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

/**
 * The exporter's connections (kept alive, with the TLS files of OTEL_EXPORTER_OTLP_[TRACES_]CERTIFICATE,
 * CLIENT_CERTIFICATE and CLIENT_KEY, as the exporter's own agent reads them), whose idle timeouts are
 * judged only after the I/O the event loop has waiting (`afterPendingReads`).
 */
function collectorAgent(protocol: string, env: NodeJS.ProcessEnv): http.Agent {
  const file = (name: string) => {
    const given = env[`OTEL_EXPORTER_OTLP_TRACES_${name}`]?.trim() || env[`OTEL_EXPORTER_OTLP_${name}`]?.trim();
    return given ? readFileSync(given) : undefined;
  };
  const agent =
    protocol === 'http:'
      ? new http.Agent({ keepAlive: true })
      : new https.Agent({ keepAlive: true, ca: file('CERTIFICATE'), cert: file('CLIENT_CERTIFICATE'), key: file('CLIENT_KEY') });
  const create = agent.createConnection.bind(agent) as (...args: unknown[]) => Socket | undefined;
  (agent as { createConnection: unknown }).createConnection = (...args: unknown[]) => {
    const socket = create(...args);
    if (socket) afterPendingReads(socket);
    return socket;
  };
  return agent;
}

/**
 * After a stall (a loaded machine, a long synchronous task) Node runs due timers before it reads the
 * sockets, so the collector's answer, already waiting in the socket, lost to the request's idle timeout:
 * the batch the collector took counted as failed and went out again (issue 39: 3 of 7 spans sent twice).
 * Here a timeout waits for the I/O phase (setImmediate runs after it) and stands only if nothing was read
 * meanwhile; a read re-arms the socket's idle timer, so a collector that really stays silent still times out.
 */
function afterPendingReads(socket: Socket): void {
  const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
  socket.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event !== 'timeout') return emit(event, ...args);
    const read = socket.bytesRead;
    setImmediate(() => {
      if (!socket.destroyed && socket.bytesRead === read) emit('timeout', ...args);
    });
    return true;
  }) as Socket['emit'];
}

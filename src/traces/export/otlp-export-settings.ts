import { InvalidConfigurationError } from '../../config';

/** How spans go out: the OTLP/HTTP encoding, the request timeout, and who they say sent them. */
export interface OtlpExportSettings {
  protocol: 'http/protobuf' | 'http/json';
  /**
   * The export URL; undefined: the official exporter's own (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
   * OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, else http://localhost:4318/v1/traces). Tests set it.
   */
  url?: string;
  /** One export request, the exporter's own retries of a 503 included, gives up after this long. */
  timeoutMs: number;
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, parsed (service.name and service.instance.id are Switchboard's). */
  resourceAttributes: Record<string, string>;
}

/**
 * The exporter's default 10 s, with its internal retries of 503s, would hold one attempt (and a stop)
 * that long; Switchboard retries with its own backoff instead, so one attempt is kept short.
 */
export const DEFAULT_EXPORT_TIMEOUT_MS = 5_000;

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

const set = (value: string | undefined): string | undefined => (value !== undefined && value.trim() !== '' ? value.trim() : undefined);

/**
 * The standard OTEL_* variables Switchboard reads itself (the endpoint and headers are read by the
 * official exporter). A protocol it cannot speak stops the start, naming the variable and what to set.
 */
export function otlpExportSettingsFrom(env: NodeJS.ProcessEnv): OtlpExportSettings {
  const problems: string[] = [];
  const protocolVariable = set(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocolValue = set(env[protocolVariable]) ?? 'http/protobuf';
  const protocol = PROTOCOLS.find((p) => p === protocolValue.toLowerCase());
  if (!protocol) {
    problems.push(
      `${protocolVariable} must be http/protobuf or http/json (got "${protocolValue}"): Switchboard exports traces over OTLP/HTTP only` +
        (protocolValue.toLowerCase() === 'grpc' ? ' (a collector takes OTLP/HTTP on port 4318)' : ''),
    );
  }
  const timeoutVariable = set(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) ? 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT' : 'OTEL_EXPORTER_OTLP_TIMEOUT';
  const timeoutValue = set(env[timeoutVariable]);
  const timeoutMs = timeoutValue === undefined ? DEFAULT_EXPORT_TIMEOUT_MS : Number(timeoutValue);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    problems.push(`${timeoutVariable} must be a whole number of milliseconds above 0 (got "${timeoutValue}")`);
  if (problems.length > 0) throw new InvalidConfigurationError(problems);
  const resourceAttributes = resourceAttributesOf(env.OTEL_RESOURCE_ATTRIBUTES);
  return {
    protocol: protocol ?? 'http/protobuf',
    timeoutMs,
    // As the SDK ranks them: OTEL_SERVICE_NAME, then service.name in OTEL_RESOURCE_ATTRIBUTES.
    serviceName: set(env.OTEL_SERVICE_NAME) ?? resourceAttributes['service.name'] ?? 'switchboard',
    resourceAttributes,
  };
}

/** `key1=value1,key2=value2`, percent-encoded values (the OpenTelemetry resource SDK's format); malformed entries dropped. */
export function resourceAttributesOf(value: string | undefined): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const entry of (value ?? '').split(',')) {
    const at = entry.indexOf('=');
    if (at <= 0) continue;
    const key = entry.slice(0, at).trim();
    try {
      if (key) attributes[key] = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      // A bad percent-escape: the entry is left out, as the SDK does.
    }
  }
  return attributes;
}

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SEMCONV_SCHEMA_URL, traceExporterOptions } from './trace-exporter';

describe('TraceExporter settings', () => {
  it('names the semantic conventions version installed (the one the span attributes follow)', () => {
    const manifest = path.resolve(__dirname, '../../../node_modules/@opentelemetry/semantic-conventions/package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    expect(SEMCONV_SCHEMA_URL).toBe(`https://opentelemetry.io/schemas/${version}`);
  });

  it('holds a claim well past one attempt, so only a dead instance loses it', () => {
    const base = { protocol: 'http/protobuf' as const, serviceName: 's', resourceAttributes: {} };
    expect(traceExporterOptions({ ...base, timeoutMs: 5_000 }).claimTtlMs).toBe(60_000);
    expect(traceExporterOptions({ ...base, timeoutMs: 60_000 }).claimTtlMs).toBe(180_000);
    expect(traceExporterOptions({ ...base, timeoutMs: 5_000 }).batchSize).toBe(512);
  });
});

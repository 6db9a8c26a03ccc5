import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OtlpReceiver } from '../fixtures/otlp-receiver';

// The receiver the traces tests read spans with: what the official exporters send, it decodes.
describe('OtlpReceiver', () => {
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    receiver = await new OtlpReceiver().start();
  });
  afterEach(() => receiver.stop());

  async function exportOne(exporter: SpanExporter): Promise<void> {
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('receiver-check', '1.0.0');
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 });
    const span = tracer.startSpan('chat gpt-test', { kind: SpanKind.CLIENT, attributes: { 'gen_ai.usage.input_tokens': 12, 'x.flag': true } }, parent);
    span.addEvent('steered', { by: 'ada' });
    span.end();
    await provider.forceFlush();
    await provider.shutdown();
  }

  it.each([
    ['protobuf', () => new ProtoExporter({ url: `${receiver.endpoint}/v1/traces` })],
    ['json', () => new JsonExporter({ url: `${receiver.endpoint}/v1/traces` })],
  ] as const)('decodes a span exported over OTLP/HTTP %s', async (encoding, exporter) => {
    await exportOne(exporter());
    expect(receiver.spans).toHaveLength(1);
    const [span] = receiver.spans;
    expect(span).toMatchObject({
      encoding,
      traceId: 'a'.repeat(32),
      parentSpanId: 'b'.repeat(16),
      name: 'chat gpt-test',
      kind: 3,
      attributes: { 'gen_ai.usage.input_tokens': 12, 'x.flag': true },
      scope: { name: 'receiver-check', version: '1.0.0' },
    });
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(span.events).toEqual([expect.objectContaining({ name: 'steered', attributes: { by: 'ada' } })]);
    expect(span.endTimeUnixNano).toBeGreaterThanOrEqual(span.startTimeUnixNano);
  });

  it('answers 503 while down, refuses connections with refuse, and takes spans again once up', async () => {
    await receiver.down();
    const refused = await fetch(`${receiver.endpoint}/v1/traces`, { method: 'POST', body: new Uint8Array(0) });
    expect(refused.status).toBe(503);
    await receiver.down({ refuse: true });
    await expect(fetch(`${receiver.endpoint}/v1/traces`, { method: 'POST', body: new Uint8Array(0) })).rejects.toThrow();
    await receiver.up();
    await exportOne(new ProtoExporter({ url: `${receiver.endpoint}/v1/traces` }));
    expect(receiver.spans).toHaveLength(1);
  });
});

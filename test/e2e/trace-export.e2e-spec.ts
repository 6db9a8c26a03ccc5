import { ReadModelDatabase } from '../../src/database/read-model-database';
import { spanIdOf, traceIdOf } from '../../src/common/trace-context';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { jsonHttp } from '../fixtures/json-http';
import { OtlpReceiver } from '../fixtures/otlp-receiver';
import { parsePrometheusText, sampleValue } from '../fixtures/prometheus-text';
import { waitUntil } from '../fixtures/wait-until';

/** An ended span as the trace-spans projection leaves it. */
function endedSpan(i: number) {
  const at = new Date(Date.now() - 60_000 + i).toISOString();
  return {
    spanId: spanIdOf('wired', String(i)),
    traceId: traceIdOf('wired'),
    parentSpanId: null,
    name: `execute_tool t${i}`,
    kind: 'internal',
    startTime: at,
    endTime: at,
    statusCode: 'ok',
    statusMessage: null,
    attributes: '{}',
    events: '[]',
    openedPosition: i,
    endedPosition: i,
  };
}

// The exporter as the service runs it: loaded with SWITCHBOARD_TRACES, configured by the standard
// OTEL_* variables, seen in /health and /metrics. The spans' content is the projection's (traces.e2e-spec).
describe('trace export in the running service', () => {
  const receiver = new OtlpReceiver();
  const apps: RunningApp[] = [];
  const saved = { ...process.env };
  beforeAll(() => receiver.start());
  afterAll(async () => {
    for (const app of apps) await app.close();
    await receiver.stop();
  });
  afterEach(() => {
    for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('sends ended spans to the OTEL_EXPORTER_OTLP_ENDPOINT collector and shows the wait while it is down', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
    process.env.OTEL_SERVICE_NAME = 'switchboard-e2e';
    const running = await startTestApp({ traces: { enabled: true, content: false } });
    apps.push(running);
    const http = jsonHttp(() => running.baseUrl);
    const db = running.app.get(ReadModelDatabase);

    await db.orm.insert(db.tables.traceSpans).values([endedSpan(1), endedSpan(2)]);
    await waitUntil(() => receiver.spans.length === 2, 'two spans at the collector', 10_000);
    expect(receiver.spans[0].resource).toMatchObject({ 'service.name': 'switchboard-e2e' });
    const healthy = await waitUntil(
      async () => {
        const { body } = await http('GET', '/health');
        return body.traces.waiting === 0 && body.traces.lastExportAt !== null && body.traces;
      },
      'the stamps',
      10_000,
    );
    expect(healthy).toEqual({ enabled: true, waiting: 0, oldestWaitingMs: null, lastExportAt: expect.any(String), lastError: null });
    const metrics = parsePrometheusText(await (await fetch(`${running.baseUrl}/metrics`)).text());
    expect(sampleValue(metrics, 'switchboard_trace_spans_exported_total', { outcome: 'exported' })).toBe(2);

    await receiver.down();
    await db.orm.insert(db.tables.traceSpans).values([endedSpan(3)]);
    const waiting = await waitUntil(
      async () => {
        const { body } = await http('GET', '/health');
        return body.traces.lastError !== null && body.traces;
      },
      'the outage in /health',
      10_000,
    );
    expect(waiting).toMatchObject({
      waiting: 1,
      oldestWaitingMs: expect.any(Number),
      lastError: expect.stringContaining('answered 429, 502, 503 or 504'),
    });
    // Requests are served as usual meanwhile.
    expect((await http('GET', '/api/sessions')).status).toBe(200);

    await receiver.up();
    await waitUntil(async () => (await http('GET', '/health')).body.traces.waiting === 0, 'the span sent after the outage', 15_000);
    expect(receiver.spans.map((s) => s.spanId).sort()).toEqual([1, 2, 3].map((i) => spanIdOf('wired', String(i))).sort());
  });

  it('says traces are off, and counts nothing, without SWITCHBOARD_TRACES', async () => {
    const running = await startTestApp();
    apps.push(running);
    expect((await jsonHttp(() => running.baseUrl)('GET', '/health')).body.traces).toEqual({ enabled: false });
    const metrics = await (await fetch(`${running.baseUrl}/metrics`)).text();
    expect(metrics).not.toContain('switchboard_trace_spans');
  });
});

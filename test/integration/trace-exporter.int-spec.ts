import { Logger, type LoggerService } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import * as path from 'node:path';
import { InstanceLease } from '../../src/instances/instance-lease';
import type { ReadModelDatabase } from '../../src/database/read-model-database';
import { spanIdOf, traceIdOf } from '../../src/common/trace-context';
import type { OtlpExportSettings } from '../../src/traces/export/otlp-export-settings';
import { otlpSpanSender, type SpanSender } from '../../src/traces/export/otlp-span-sender';
import type { TraceSpanRow } from '../../src/traces/export/readable-span';
import { TraceExporter, traceExporterOptions, type TraceExporterOptions } from '../../src/traces/export/trace-exporter';
import { OtlpReceiver } from '../fixtures/otlp-receiver';
import { readModelTargets, type ReadModelTarget } from '../fixtures/read-model-targets';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

/** What the exporter logged, by level (the console stays quiet unless SWITCHBOARD_TEST_LOGS is set). */
const logged: Array<{ level: string; text: string }> = [];
const recordAs =
  (level: string) =>
  (...parts: unknown[]): void => {
    logged.push({ level, text: parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ') });
  };
const recordingLogger: LoggerService = {
  log: recordAs('log'),
  warn: recordAs('warn'),
  error: recordAs('error'),
  debug: recordAs('debug'),
  verbose: recordAs('verbose'),
};
if (!process.env.SWITCHBOARD_TEST_LOGS) Logger.overrideLogger(recordingLogger);

const TRACE = traceIdOf('exporter-test');
/** How long a wait may take on a busy 2-core machine before it is a failure (the happy path takes far less). */
const PATIENCE_MS = 10_000;
const T0 = Date.UTC(2026, 10, 28, 4, 0, 0);
const iso = (ms: number) => new Date(T0 + ms).toISOString();

/** An ended span row as the trace-spans projection writes it; `i` orders them (ended position). */
function spanRow(i: number, overrides: Partial<TraceSpanRow> = {}): TraceSpanRow {
  return {
    spanId: spanIdOf('span', String(i)),
    traceId: TRACE,
    parentSpanId: i === 0 ? null : spanIdOf('span', '0'),
    name: `execute_tool tool-${i}`,
    kind: 'internal',
    startTime: iso(i * 1000),
    endTime: iso(i * 1000 + 500),
    statusCode: 'ok',
    statusMessage: null,
    attributes: JSON.stringify({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': `tool-${i}` }),
    events: '[]',
    openedPosition: i * 2,
    endedPosition: i * 2 + 1,
    exportedAt: null,
    claimedBy: null,
    claimedUntil: null,
    ...overrides,
  };
}

async function insert(db: ReadModelDatabase, rows: TraceSpanRow[]): Promise<void> {
  await db.orm.insert(db.tables.traceSpans).values(rows);
}

async function row(db: ReadModelDatabase, spanId: string): Promise<TraceSpanRow> {
  const [found] = await db.orm.select().from(db.tables.traceSpans).where(eq(db.tables.traceSpans.spanId, spanId));
  return found;
}

describe.each(readModelTargets())('TraceExporter on %s', (_name, open) => {
  let target: ReadModelTarget;
  let receiver: OtlpReceiver;
  let tmp: ReturnType<typeof makeTempDir>;
  const exporters: TraceExporter[] = [];

  beforeEach(async () => {
    target = await open();
    receiver = await new OtlpReceiver().start();
    tmp = makeTempDir();
    logged.length = 0;
  });

  afterEach(async () => {
    for (const exporter of exporters.splice(0)) await exporter.onModuleDestroy();
    await receiver.stop();
    await target.close();
    tmp.cleanup();
  });

  /** An exporter as one instance runs it (its own lease id), polling fast, sending to the receiver. */
  function exporter(protocol: OtlpExportSettings['protocol'] = 'http/protobuf', overrides: Partial<TraceExporterOptions> = {}) {
    const settings: OtlpExportSettings = {
      protocol,
      url: `${receiver.endpoint}/v1/traces`,
      timeoutMs: 300,
      serviceName: 'switchboard-test',
      resourceAttributes: { 'deployment.environment': 'test' },
    };
    const lease = new InstanceLease(testConfig(path.join(tmp.dir, String(exporters.length))), target.db);
    const made = new TraceExporter(target.db, lease, settings, traceExporterOptions(settings, { pollMs: 20, retryMaxMs: 100, ...overrides }));
    exporters.push(made);
    return { exporter: made, instanceId: lease.instanceId };
  }

  it.each(['http/protobuf', 'http/json'] as const)('sends each ended span once over %s, with resource and scope, and stamps it', async (protocol) => {
    const open = spanRow(3, { endTime: null, endedPosition: null, name: 'invoke_agent lead' });
    const sentBefore = spanRow(4, { exportedAt: iso(0) });
    await insert(target.db, [
      spanRow(0, { kind: 'client', statusCode: 'error', statusMessage: 'model refused', parentSpanId: 'cafecafecafecafe' }),
      spanRow(1, { events: JSON.stringify([{ name: 'session.steered', time: iso(1200), attributes: { by: 'ada' } }]) }),
      spanRow(2),
      open,
      sentBefore,
    ]);
    const { exporter: traceExporter, instanceId } = exporter(protocol);
    traceExporter.onApplicationBootstrap();

    await waitUntil(() => receiver.spans.length >= 3, 'three spans at the receiver', PATIENCE_MS);
    expect(receiver.spans.map((s) => s.spanId).sort()).toEqual([0, 1, 2].map((i) => spanIdOf('span', String(i))).sort());
    const [first] = receiver.spansWithId(spanIdOf('span', '0'));
    expect(first).toMatchObject({
      encoding: protocol === 'http/json' ? 'json' : 'protobuf',
      traceId: TRACE,
      parentSpanId: 'cafecafecafecafe',
      name: 'execute_tool tool-0',
      kind: 3,
      startTimeUnixNano: BigInt(T0) * 1_000_000n,
      endTimeUnixNano: BigInt(T0 + 500) * 1_000_000n,
      status: { code: 2, message: 'model refused' },
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'tool-0' },
      resource: {
        'service.name': 'switchboard-test',
        'service.instance.id': instanceId,
        'deployment.environment': 'test',
        'service.version': expect.any(String),
      },
      scope: { name: 'switchboard', version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
    });
    expect(receiver.spansWithId(spanIdOf('span', '1'))[0].events).toEqual([
      { name: 'session.steered', timeUnixNano: BigInt(T0 + 1200) * 1_000_000n, attributes: { by: 'ada' } },
    ]);
    expect(receiver.spansWithId(spanIdOf('span', '1'))[0].parentSpanId).toBe(spanIdOf('span', '0'));

    await waitUntil(async () => (await row(target.db, spanIdOf('span', '2'))).exportedAt !== null, 'the stamp', PATIENCE_MS);
    expect(await row(target.db, spanIdOf('span', '0'))).toMatchObject({ exportedAt: expect.any(String), claimedBy: null, claimedUntil: null });
    expect(await traceExporter.status()).toMatchObject({
      enabled: true,
      waiting: 0,
      oldestWaitingMs: null,
      lastExportAt: expect.any(String),
      lastError: null,
    });

    // The projection ends the open span later: it goes out then, and nothing goes out twice.
    await target.db.orm
      .update(target.db.tables.traceSpans)
      .set({ endTime: iso(9000), endedPosition: 20 })
      .where(eq(target.db.tables.traceSpans.spanId, open.spanId));
    await waitUntil(() => receiver.spansWithId(open.spanId).length === 1, 'the span ended later', PATIENCE_MS);
    await new Promise((r) => setTimeout(r, 150)); // several polls
    expect(receiver.spans).toHaveLength(4);
    expect(receiver.spansWithId(sentBefore.spanId)).toEqual([]);
  });

  it.each([
    ['answers 503', { refuse: false }, 'it answered 429, 502, 503 or 504'],
    ['refuses connections', { refuse: true }, 'ECONNREFUSED'],
  ] as const)('keeps spans waiting while the collector %s, then sends every one once', async (_how, down, problem) => {
    await receiver.down(down);
    await insert(
      target.db,
      Array.from({ length: 7 }, (_, i) => spanRow(i)),
    );
    const { exporter: traceExporter } = exporter('http/protobuf', { batchSize: 3 });
    const failed: number[] = [];
    traceExporter.outcomes$.subscribe(({ spans, outcome }) => outcome === 'failed' && failed.push(spans));
    traceExporter.onApplicationBootstrap();

    const failing = await waitUntil(
      async () => {
        const status = await traceExporter.status();
        return status.lastError !== null && (status.failedAttempts ?? 0) >= 2 && status;
      },
      'the exporter to report the outage',
      PATIENCE_MS,
    );
    expect(failing).toMatchObject({
      waiting: 7,
      lastExportAt: null,
      lastError: expect.stringMatching(new RegExp(`^the OTLP collector did not take the spans: .*${problem}`)),
      failingSince: expect.any(String),
    });
    expect(failing.oldestWaitingMs).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    // Nothing is held while it waits: the rows are free for the next attempt (or another instance).
    expect((await row(target.db, spanIdOf('span', '0'))).exportedAt).toBeNull();

    await receiver.up();
    await waitUntil(async () => (await traceExporter.status()).waiting === 0, 'every span exported', PATIENCE_MS);
    expect(receiver.spans.map((s) => s.spanId).sort()).toEqual(Array.from({ length: 7 }, (_, i) => spanIdOf('span', String(i))).sort());
    expect(await traceExporter.status()).toMatchObject({ lastError: null, lastExportAt: expect.any(String) });
    expect(Math.max(...receiver.requests.map((r) => r.spans.length))).toBe(3);
    // One line when the outage began and one when it ended, not one per attempt.
    if (!process.env.SWITCHBOARD_TEST_LOGS) {
      expect(logged.filter((l) => l.text.includes('trace export failing')).map((l) => l.level)).toEqual(['warn']);
      expect(logged.filter((l) => l.text.includes('trace export recovered'))).toHaveLength(1);
    }
  });

  it('sends a batch the collector took once, though this process stalled past the timeout before reading the answer', async () => {
    await insert(
      target.db,
      Array.from({ length: 3 }, (_, i) => spanRow(i)),
    );
    // Longer than the exporter's 300 ms timeout: when the process runs again the timeout is due and the answer unread.
    receiver.stallAfterAnswer(600);
    const { exporter: traceExporter } = exporter('http/protobuf', { batchSize: 3 });
    const outcomes: string[] = [];
    traceExporter.outcomes$.subscribe(({ outcome }) => outcomes.push(outcome));
    traceExporter.onApplicationBootstrap();

    await waitUntil(async () => (await traceExporter.status()).waiting === 0, 'every span exported', PATIENCE_MS);
    await new Promise((r) => setTimeout(r, 150)); // several polls
    expect(receiver.spans.map((s) => s.spanId).sort()).toEqual([0, 1, 2].map((i) => spanIdOf('span', String(i))).sort());
    expect(receiver.requests).toHaveLength(1);
    expect(outcomes).toEqual(['exported']);
  });

  it('two instances on one database never send the same span', async () => {
    const count = 60;
    await insert(
      target.db,
      Array.from({ length: count }, (_, i) => spanRow(i)),
    );
    // One instance on a slower link: their attempts overlap at every point of claim, send and stamp.
    const slowLink = (delayMs: number): SpanSender => {
      const real = otlpSpanSender({
        protocol: 'http/protobuf',
        url: `${receiver.endpoint}/v1/traces`,
        timeoutMs: 1_000,
        serviceName: 's',
        resourceAttributes: {},
      });
      return { send: async (spans) => (await new Promise((r) => setTimeout(r, delayMs)), real.send(spans)), shutdown: () => real.shutdown() };
    };
    const a = exporter('http/protobuf', { batchSize: 4, pollMs: 1 });
    const b = exporter('http/protobuf', { batchSize: 4, pollMs: 1, sender: slowLink(15) });
    a.exporter.onApplicationBootstrap();
    b.exporter.onApplicationBootstrap();
    await waitUntil(async () => (await a.exporter.status()).waiting === 0, 'every span exported', PATIENCE_MS);
    await new Promise((r) => setTimeout(r, 50));
    const ids = receiver.spans.map((s) => s.spanId);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    expect(Math.max(...receiver.requests.map((r) => r.spans.length))).toBeLessThanOrEqual(4);
    // Each request came from one instance, told by its resource.
    const senders = new Set(receiver.spans.map((s) => s.resource['service.instance.id']));
    expect(senders).toEqual(new Set([a.instanceId, b.instanceId]));
  });

  it("takes over a dead instance's claim once it expired, and leaves a live claim alone until then", async () => {
    let now = new Date(T0 + 60_000);
    await insert(target.db, [
      spanRow(0, { claimedBy: 'dead-instance', claimedUntil: iso(59_000) }),
      spanRow(1, { claimedBy: 'busy-instance', claimedUntil: iso(90_000) }),
    ]);
    const { exporter: traceExporter, instanceId } = exporter('http/protobuf', { clock: () => now });
    traceExporter.onApplicationBootstrap();

    await waitUntil(() => receiver.spans.length === 1, 'the expired claim taken over', PATIENCE_MS);
    expect(receiver.spans[0]).toMatchObject({ spanId: spanIdOf('span', '0'), resource: { 'service.instance.id': instanceId } });
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.spansWithId(spanIdOf('span', '1'))).toEqual([]);

    now = new Date(T0 + 90_001);
    await waitUntil(() => receiver.spansWithId(spanIdOf('span', '1')).length === 1, 'the second claim, expired too', PATIENCE_MS);
    expect(receiver.spans).toHaveLength(2);
  });

  it('stops promptly while the collector is away, and another start sends what was left', async () => {
    await receiver.down({ refuse: true });
    await insert(target.db, [spanRow(0), spanRow(1)]);
    const first = exporter();
    first.exporter.onApplicationBootstrap();
    await waitUntil(async () => (await first.exporter.status()).lastError !== null, 'the outage', PATIENCE_MS);
    const stopping = Date.now();
    await first.exporter.onModuleDestroy();
    exporters.splice(exporters.indexOf(first.exporter), 1);
    expect(Date.now() - stopping).toBeLessThan(3_000); // one attempt's timeout is 300 ms

    await receiver.up();
    const second = exporter();
    second.exporter.onApplicationBootstrap();
    await waitUntil(() => receiver.spans.length === 2, 'the spans left waiting', PATIENCE_MS);
    expect(new Set(receiver.spans.map((s) => s.spanId)).size).toBe(2);
  });
});

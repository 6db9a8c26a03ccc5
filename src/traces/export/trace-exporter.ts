import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import type { InstrumentationScope } from '@opentelemetry/core';
import { type Resource, resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Subject } from 'rxjs';
import { serviceVersion } from '../../common';
import { ReadModelDatabase } from '../../database';
import { InstanceLease, LeaseMonitor, type TakeoverParticipation } from '../../instances';
import { TraceExport, type TraceExportOutcome, type TraceExportStatus } from '../trace-export';
import { DEFAULT_EXPORT_RETRY_MAX_MS, ExportOutage } from './export-outage';
import type { OtlpExportSettings } from './otlp-export-settings';
import { otlpSpanSender, type SpanSender } from './otlp-span-sender';
import { MalformedSpanRowError, readableSpanOf, type SpanOrigin } from './readable-span';
import { TraceSpanClaims } from './trace-span-claims';

export const OTLP_EXPORT_SETTINGS = Symbol('OTLP_EXPORT_SETTINGS');
export const TRACE_EXPORTER_OPTIONS = Symbol('TRACE_EXPORTER_OPTIONS');

/** The GenAI semantic conventions the spans follow (@opentelemetry/semantic-conventions 1.45). */
export const SEMCONV_SCHEMA_URL = 'https://opentelemetry.io/schemas/1.45.0';
/** The most spans one export request carries (the SDK batch processor's default batch). */
export const MAX_EXPORT_BATCH = 512;

export interface TraceExporterOptions {
  /** How often an idle exporter looks for ended spans (the projection writes them asynchronously). */
  pollMs: number;
  batchSize: number;
  /** Backoff cap while the collector is away. */
  retryMaxMs: number;
  /** How long a claim holds: longer than any attempt (its timeout), so only a dead instance's claim expires. */
  claimTtlMs: number;
  /** The clock claims and waiting times are judged by; tests move it. */
  clock: () => Date;
  /** The sender; the official OTLP exporter for the settings unless a test injects faults. */
  sender?: SpanSender;
}

export function traceExporterOptions(settings: OtlpExportSettings, overrides: Partial<TraceExporterOptions> = {}): TraceExporterOptions {
  return {
    pollMs: 1_000,
    batchSize: MAX_EXPORT_BATCH,
    retryMaxMs: DEFAULT_EXPORT_RETRY_MAX_MS,
    claimTtlMs: Math.max(60_000, settings.timeoutMs * 3),
    clock: () => new Date(),
    ...overrides,
  };
}

/**
 * Sends the spans the `trace-spans` projection has ended to the collector over OTLP/HTTP, oldest
 * ended first, in batches of at most 512, and stamps them exported only once the collector took
 * them. It polls (cheap when idle: one indexed query), never runs inside an append or a request,
 * and while the collector is away retries with a capped backoff, logging once when the outage starts
 * and once when it ends. On several instances each batch is claimed first (`TraceSpanClaims`).
 */
@Injectable()
export class TraceExporter extends TraceExport implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TraceExporter.name);
  private readonly claims: TraceSpanClaims;
  private readonly sender: SpanSender;
  private readonly outage: ExportOutage;
  private readonly outcomes = new Subject<TraceExportOutcome>();
  readonly outcomes$ = this.outcomes.asObservable();
  private readonly scope: InstrumentationScope;
  private origin?: { instanceId: string; value: SpanOrigin };
  private takeover?: TakeoverParticipation;
  private timer?: NodeJS.Timeout;
  private passing?: Promise<void>;
  private wakeAgain = false;
  private stopped = false;
  /** The outage is the collector's (only a sent batch ends it), not the database's (any query that goes through does). */
  private collectorDown = false;

  constructor(
    db: ReadModelDatabase,
    private readonly lease: InstanceLease,
    @Inject(OTLP_EXPORT_SETTINGS) private readonly settings: OtlpExportSettings,
    @Inject(TRACE_EXPORTER_OPTIONS) private readonly options: TraceExporterOptions,
    // Absent where a test drives one exporter by hand: claims then only expire.
    @Optional() private readonly monitor?: LeaseMonitor,
  ) {
    super();
    this.claims = new TraceSpanClaims(db);
    this.sender = options.sender ?? otlpSpanSender(settings);
    this.outage = new ExportOutage(options.retryMaxMs);
    const version = serviceVersion();
    this.scope = { name: 'switchboard', version, schemaUrl: SEMCONV_SCHEMA_URL };
  }

  /**
   * A dead instance's claim (killed mid-export: this process's previous life on SQLite, another instance
   * on PostgreSQL) is freed when its lease is taken over, not a claim's TTL later: its spans go out again now.
   */
  onModuleInit(): void {
    this.takeover = this.monitor?.join('traces', (dead) => this.releaseClaimsOf(dead.instanceId));
  }

  onApplicationBootstrap(): void {
    this.logger.log(
      { protocol: this.settings.protocol, serviceName: this.settings.serviceName, timeoutMs: this.settings.timeoutMs },
      'exporting trace spans over OTLP/HTTP',
    );
    this.schedule(0);
    this.takeover?.recovered();
  }

  private async releaseClaimsOf(instanceId: string): Promise<void> {
    const released = await this.claims.releaseAllOf(instanceId);
    if (released === 0) return;
    this.logger.warn({ instanceId, spans: released }, 'trace spans a dead instance was exporting go out again');
    this.wake();
  }

  /** Stops polling and lets an export in flight finish (bounded by its timeout) before the database closes. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.passing;
    await this.sender.shutdown().catch((error: unknown) => this.logger.warn({ err: error }, 'the OTLP exporter did not shut down cleanly'));
    this.outcomes.complete();
  }

  /** Look for ended spans now (after the projection wrote some), unless the collector is in backoff. */
  wake(): void {
    if (this.stopped || this.outage.current) return;
    if (this.passing) this.wakeAgain = true;
    else this.schedule(0);
  }

  async status(): Promise<TraceExportStatus> {
    const now = this.options.clock();
    const { waiting, oldestEndTime, lastExportedAt } = await this.claims.waiting();
    const failure = this.outage.current;
    return {
      enabled: true,
      waiting,
      oldestWaitingMs: oldestEndTime ? Math.max(0, now.getTime() - Date.parse(oldestEndTime)) : null,
      lastExportAt: lastExportedAt ?? null,
      lastError: failure?.error ?? null,
      ...(failure ? { failingSince: failure.since.toISOString(), failedAttempts: failure.attempts, nextRetryAt: failure.nextRetryAt.toISOString() } : {}),
    };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.passing = this.pass().finally(() => (this.passing = undefined));
    }, delayMs);
    this.timer.unref();
  }

  /** One attempt, then the next one's time: at once after a full batch, after the backoff after a failure, else the poll. */
  private async pass(): Promise<void> {
    let next = this.options.pollMs;
    try {
      const sent = await this.exportBatch();
      if (sent >= this.options.batchSize || this.wakeAgain) next = 0;
    } catch (error) {
      next = this.failed(error);
    }
    this.wakeAgain = false;
    this.schedule(next);
  }

  /** Claims, sends and stamps one batch; the number of rows it handled. */
  private async exportBatch(): Promise<number> {
    const instanceId = this.lease.instanceId;
    const now = this.options.clock();
    const rows = await this.claims.claim(instanceId, now, new Date(now.getTime() + this.options.claimTtlMs), this.options.batchSize);
    if (rows.length === 0) {
      if (!this.collectorDown) this.recovered();
      return 0;
    }
    const origin = this.originFor(instanceId);
    const spans: ReadableSpan[] = [];
    for (const row of rows) {
      try {
        spans.push(readableSpanOf(row, origin));
      } catch (error) {
        if (!(error instanceof MalformedSpanRowError)) throw error;
        // Sent as it is it would fail every batch it is in; set aside (stamped) with the reason logged.
        this.logger.error({ spanId: row.spanId, traceId: row.traceId }, error.message);
      }
    }
    if (spans.length > 0) {
      try {
        await this.sender.send(spans);
      } catch (error) {
        await this.claims
          .release(
            rows.map((row) => row.spanId),
            instanceId,
          )
          .catch(() => undefined); // the claim expires anyway
        this.outcomes.next({ spans: spans.length, outcome: 'failed' });
        throw new CollectorRefusedError(error);
      }
    }
    await this.claims.markExported(
      rows.map((row) => row.spanId),
      this.options.clock(),
    );
    if (spans.length > 0) this.outcomes.next({ spans: spans.length, outcome: 'exported' });
    this.recovered();
    return rows.length;
  }

  private recovered(): void {
    const ended = this.outage.succeeded();
    if (!ended) return;
    this.logger.log(
      { failedAttempts: ended.attempts, failingSince: ended.since.toISOString(), lastError: ended.error },
      'trace export recovered: spans go out again',
    );
  }

  private failed(error: unknown): number {
    this.collectorDown = error instanceof CollectorRefusedError;
    const message = error instanceof CollectorRefusedError ? error.message : `reading or stamping trace_spans failed: ${messageOf(error)}`;
    const { delayMs, started } = this.outage.failed(message, this.options.clock());
    if (started) {
      this.logger.warn(
        { err: error, retryInMs: delayMs, retryMaxMs: this.options.retryMaxMs },
        `trace export failing (${message}); spans wait in trace_spans and go out when it recovers`,
      );
    }
    return delayMs;
  }

  /** One Resource per instance id (the OTLP encoder groups spans by the Resource object). */
  private originFor(instanceId: string): SpanOrigin {
    if (this.origin?.instanceId !== instanceId) {
      const resource: Resource = resourceFromAttributes({
        ...this.settings.resourceAttributes,
        'service.name': this.settings.serviceName,
        'service.version': this.scope.version ?? 'unknown',
        'service.instance.id': instanceId,
      });
      this.origin = { instanceId, value: { resource, scope: this.scope } };
    }
    return this.origin.value;
  }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Node's socket errors carry their cause in `code` (ECONNREFUSED); the exporter's HTTP errors, the status.
  const code = (error as Error & { code?: unknown }).code;
  const shown = typeof code === 'string' || typeof code === 'number' ? String(code) : undefined;
  return shown !== undefined && !error.message.includes(shown) ? `${error.message} (${shown})` : error.message;
}

/** The official exporter drops the status of a retryable answer (OTLP's 429, 502, 503, 504): say what it was. */
function collectorProblemOf(error: unknown): string {
  const message = messageOf(error);
  return message === 'Export failed with retryable status' ? 'it answered 429, 502, 503 or 504 (busy or unavailable) until the timeout' : message;
}

/** The collector did not take a batch: refused, unreachable, or too slow. */
class CollectorRefusedError extends Error {
  constructor(cause: unknown) {
    super(`the OTLP collector did not take the spans: ${collectorProblemOf(cause)}`, { cause });
    this.name = 'CollectorRefusedError';
  }
}

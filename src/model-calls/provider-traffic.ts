import { Injectable } from '@nestjs/common';

/** The provider as real traffic shows it: what /health and the console say before any probe would. */
export interface ProviderTrafficState {
  /** Calls seen in the window (the last 100 calls, at most 10 minutes old). */
  calls: number;
  failures: number;
  /** Failures over calls in the window; undefined without calls. */
  errorRate?: number;
  lastSuccessAt?: string;
  lastFailureAt?: string;
  /** The status of the last failure (undefined for a transport failure). */
  lastFailureStatus?: number;
  /** What went wrong with the last failed call, in words an operator acts on. */
  lastFailureReason?: string;
  /** Median time to the provider's first byte over the window's successes. */
  ttfbP50Ms?: number;
  durationP50Ms?: number;
  /** The last call failed and none succeeded since: the provider is down as far as traffic says. */
  failing: boolean;
}

interface Outcome {
  at: number;
  ok: boolean;
  durationMs: number;
  ttfbMs?: number;
  status?: number;
  reason?: string;
}

const WINDOW_CALLS = 100;
const WINDOW_MS = 10 * 60_000;

/** Outcomes of the calls this instance forwarded, kept in a small window. */
@Injectable()
export class ProviderTraffic {
  private readonly outcomes: Outcome[] = [];
  private lastSuccess?: number;
  private lastFailure?: Outcome;
  /** Whether the newest outcome was a failure: two calls ending in the same millisecond are still ordered. */
  private lastFailed = false;

  succeeded(_model: string, durationMs: number, ttfbMs: number): void {
    const outcome = { at: Date.now(), ok: true, durationMs, ttfbMs };
    this.lastSuccess = outcome.at;
    this.lastFailed = false;
    this.keep(outcome);
  }

  failed(_model: string, durationMs: number, status: number | undefined, reason?: string): void {
    const outcome = { at: Date.now(), ok: false, durationMs, ...(status !== undefined ? { status } : {}), ...(reason ? { reason } : {}) };
    this.lastFailure = outcome;
    this.lastFailed = true;
    this.keep(outcome);
  }

  state(now = Date.now()): ProviderTrafficState {
    const recent = this.outcomes.filter((o) => now - o.at <= WINDOW_MS);
    const successes = recent.filter((o) => o.ok);
    const failures = recent.length - successes.length;
    return {
      calls: recent.length,
      failures,
      ...(recent.length > 0 ? { errorRate: failures / recent.length } : {}),
      ...(this.lastSuccess ? { lastSuccessAt: new Date(this.lastSuccess).toISOString() } : {}),
      ...(this.lastFailure ? { lastFailureAt: new Date(this.lastFailure.at).toISOString() } : {}),
      ...(this.lastFailure?.status !== undefined ? { lastFailureStatus: this.lastFailure.status } : {}),
      ...(this.lastFailure?.reason ? { lastFailureReason: this.lastFailure.reason } : {}),
      ...(successes.length > 0
        ? { ttfbP50Ms: median(successes.map((o) => o.ttfbMs ?? o.durationMs)), durationP50Ms: median(successes.map((o) => o.durationMs)) }
        : {}),
      failing: this.lastFailed,
    };
  }

  /** Whether any call went through lately: an idle provider is probed instead. */
  busySince(ms: number, now = Date.now()): boolean {
    const last = this.outcomes.at(-1);
    return last !== undefined && now - last.at <= ms;
  }

  private keep(outcome: Outcome): void {
    this.outcomes.push(outcome);
    if (this.outcomes.length > WINDOW_CALLS) this.outcomes.shift();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

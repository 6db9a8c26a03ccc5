import { Logger } from '@nestjs/common';
import type { CopilotCliConfig } from '../config';

type ProviderConfig = NonNullable<CopilotCliConfig['provider']>;

/** What the last look at the model provider found. */
export interface ProviderReachability {
  /** answering: it answered HTTP; failing: it did not, or refused the key; unchecked: nothing to ask (GitHub token). */
  state: 'answering' | 'failing' | 'unchecked';
  /** The URL asked (no key in it). */
  endpoint?: string;
  /** When the last look was made (ISO). */
  checkedAt?: string;
  /** When the provider last answered, this process's memory; undefined: not since the start. */
  lastAnsweredAt?: string;
  latencyMs?: number;
  /** Why it is failing, with what to fix. */
  reason?: string;
}

export interface ProviderProbeOptions {
  /** How long an answer is reused: a load balancer polling /health/ready does not poll the provider. */
  answeringTtlMs: number;
  /** Shorter after a failure, so a provider that came back shows soon. */
  failingTtlMs: number;
  /** A provider that does not answer within this is failing. */
  timeoutMs: number;
}

export const DEFAULT_PROVIDER_PROBE_OPTIONS: ProviderProbeOptions = { answeringTtlMs: 5_000, failingTtlMs: 2_000, timeoutMs: 3_000 };

/**
 * Asks the configured BYOK model provider one cheap question (`GET <baseUrl>/models`, the listing
 * every OpenAI-compatible server has) so Health can say the provider is down before a user sends a
 * message. The answer is cached (shorter when failing) and never more than one look is in flight:
 * however often /health is polled, the provider sees at most one request per TTL.
 * Any HTTP answer but 401/403 or 5xx is "answering": a server without a models listing still answered.
 */
export class ProviderProbe {
  private readonly logger = new Logger(ProviderProbe.name);
  private last?: { result: ProviderReachability; at: number };
  private inFlight?: Promise<ProviderReachability>;
  private lastAnsweredAt?: string;

  constructor(
    private readonly provider: ProviderConfig | undefined,
    private readonly options: ProviderProbeOptions = DEFAULT_PROVIDER_PROBE_OPTIONS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached look, or a new one when it is stale (joined when one is already under way). */
  async reachability(): Promise<ProviderReachability> {
    if (!this.provider) return { state: 'unchecked' };
    if (this.last && this.now() - this.last.at < this.ttlOf(this.last.result)) return this.last.result;
    this.inFlight ??= this.look(this.provider).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private ttlOf(result: ProviderReachability): number {
    return result.state === 'failing' ? this.options.failingTtlMs : this.options.answeringTtlMs;
  }

  private async look(provider: ProviderConfig): Promise<ProviderReachability> {
    const { url, headers } = providerListingRequest(provider);
    const started = this.now();
    const checkedAt = new Date(started).toISOString();
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let result: ProviderReachability;
    try {
      const response = await fetch(url, { headers, signal, redirect: 'manual' });
      await response.body?.cancel();
      const latencyMs = this.now() - started;
      const problem = answerProblem(response.status);
      if (!problem) this.lastAnsweredAt = checkedAt;
      result = problem
        ? { state: 'failing', endpoint: url, checkedAt, latencyMs, reason: problem, lastAnsweredAt: this.lastAnsweredAt }
        : { state: 'answering', endpoint: url, checkedAt, latencyMs, lastAnsweredAt: this.lastAnsweredAt };
    } catch (error) {
      const reason = signal.aborted
        ? `the model provider at ${url} did not answer within ${this.options.timeoutMs} ms: check that it is up and reachable from this host (COPILOT_PROVIDER_BASE_URL)`
        : `the model provider at ${url} cannot be reached (${causeOf(error)}): check that it is up and that COPILOT_PROVIDER_BASE_URL is right`;
      result = { state: 'failing', endpoint: url, checkedAt, reason, lastAnsweredAt: this.lastAnsweredAt };
    }
    if (result.state !== this.last?.result.state) {
      if (result.state === 'failing') this.logger.warn({ endpoint: url, reason: result.reason }, 'model provider not answering');
      else this.logger.log({ endpoint: url, latencyMs: result.latencyMs }, 'model provider answering');
    }
    this.last = { result, at: this.now() };
    return result;
  }
}

/** The listing request for each provider type, with the key where that type expects it. */
export function providerListingRequest(provider: ProviderConfig): { url: string; headers: Record<string, string> } {
  const url = `${provider.baseUrl.replace(/\/+$/, '')}/models`;
  const key = provider.apiKey;
  if (!key) return { url, headers: {} };
  if (provider.type === 'azure') return { url, headers: { 'api-key': key } };
  if (provider.type === 'anthropic') return { url, headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' } };
  return { url, headers: { authorization: `Bearer ${key}` } };
}

/** What an HTTP status says about the provider, or undefined when it answered as a working provider does. */
export function answerProblem(status: number): string | undefined {
  if (status === 401 || status === 403) {
    return `the model provider refused the API key (HTTP ${status}): check COPILOT_PROVIDER_API_KEY`;
  }
  if (status >= 500) return `the model provider answered HTTP ${status}: it is up but failing; check its own status`;
  return undefined;
}

/** The innermost cause fetch reports (ECONNREFUSED, ENOTFOUND...), not its generic "fetch failed". */
function causeOf(error: unknown): string {
  // Duck-typed: undici's errors may come from another realm than this module's Error.
  type Failure = { cause?: unknown; code?: unknown; message?: unknown };
  let current = error as Failure | undefined;
  while (typeof current?.cause === 'object' && current.cause !== null) current = current.cause;
  if (typeof current?.code === 'string') return current.code;
  return typeof current?.message === 'string' ? current.message : 'unknown error';
}

import { Inject, Injectable } from '@nestjs/common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { cliStartProblem, CopilotCliConnection } from '../copilot-cli';
import { DatabaseHealth } from '../database';
import { ProviderTraffic, type ProviderTrafficState } from '../model-calls';
import { AsyncProjectionRunner, type AsyncProjectionStatus } from '../projections';
import { ProviderProbe } from './provider-probe';
/** This many unexpected CLI exits within a minute is a crash loop, not a restart. */
const CRASH_LOOP_EXITS = 3;
/** Model calls that ended within this say how the provider is; a provider idle for longer is probed. */
export const PROVIDER_TRAFFIC_RECENT_MS = 60_000;

export type ReadinessCheckName = 'database' | 'migrations' | 'projections' | 'copilotCli' | 'provider';

export interface ReadinessCheck {
  ok: boolean;
  /** Why it fails, in words an operator acts on. */
  reason?: string;
  /** false: reported, but a failure does not make the service unready (the model provider's outage). */
  gatesReadiness?: boolean;
  [detail: string]: unknown;
}

export interface ReadinessReport {
  ready: boolean;
  /** Each failing check that makes the service unready, with its reason; empty when ready. */
  failing: Array<{ check: ReadinessCheckName; reason: string }>;
  /** Each failing check that does not (the model provider not answering): ready, but work will fail. */
  degraded: Array<{ check: ReadinessCheckName; reason: string }>;
  checks: Record<ReadinessCheckName, ReadinessCheck>;
}

/**
 * What /health/ready answers: the service can take work now. The database takes writes, every
 * migration is applied (both judged by the dialect's DatabaseHealth), async projections are caught up (within SWITCHBOARD_READY_MAX_PROJECTION_LAG)
 * and none is failing, the CLI can be started (or reached), and a model provider is configured.
 *
 * The provider answering is checked (`ProviderProbe`) and reported, but it does not gate readiness:
 * it is outside this instance and shared by every instance, so a load balancer that dropped
 * instances for it would turn a provider blip into a full outage (console, approvals, history and
 * audit down too) without fixing anything. It is listed under `degraded` instead: alert on that.
 */
@Injectable()
export class Readiness {
  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly database: DatabaseHealth,
    private readonly runner: AsyncProjectionRunner,
    private readonly cli: CopilotCliConnection,
    private readonly providerProbe: ProviderProbe,
    private readonly traffic: ProviderTraffic,
  ) {}

  async check(): Promise<ReadinessReport> {
    const { database, migrations } = await this.database.check();
    const checks: Record<ReadinessCheckName, ReadinessCheck> = {
      database,
      migrations,
      projections: await this.projectionsCheck(),
      copilotCli: await this.cliCheck(),
      provider: await this.providerCheck(),
    };
    const failed = (Object.entries(checks) as Array<[ReadinessCheckName, ReadinessCheck]>)
      .filter(([, c]) => !c.ok)
      .map(([check, c]) => ({ check, reason: c.reason ?? 'failing', gates: c.gatesReadiness !== false }));
    const failing = failed.filter((f) => f.gates).map(({ check, reason }) => ({ check, reason }));
    const degraded = failed.filter((f) => !f.gates).map(({ check, reason }) => ({ check, reason }));
    return { ready: failing.length === 0, failing, degraded, checks };
  }

  private async projectionsCheck(): Promise<ReadinessCheck> {
    const bound = this.config.resilience.readyMaxProjectionLag;
    let projections: AsyncProjectionStatus[];
    try {
      projections = await this.runner.status();
    } catch (error) {
      return { ok: false, reason: `cannot read the projections' positions: ${(error as Error).message}` };
    }
    const problems = projections.flatMap((p) => {
      if (p.state === 'failing') {
        return [
          `${p.name} is failing since ${p.failingSince} (${p.failedAttempts} attempts, next at ${p.nextRetryAt}), ${p.lag} events behind: ${p.lastError}`,
        ];
      }
      if (p.lag > bound) return [`${p.name} is ${p.lag} events behind the log (SWITCHBOARD_READY_MAX_PROJECTION_LAG=${bound})`];
      return [];
    });
    return problems.length > 0 ? { ok: false, reason: problems.join('; '), projections } : { ok: true, projections };
  }

  private async cliCheck(): Promise<ReadinessCheck> {
    const status = this.cli.status();
    if (status.exitsLastMinute >= CRASH_LOOP_EXITS) {
      return { ok: false, reason: `the Copilot CLI exited ${status.exitsLastMinute} times in the last minute (crash loop)`, ...status };
    }
    if (status.running) return { ok: true, ...status };
    if (status.lastStartFailure) return { ok: false, reason: `the Copilot CLI failed to start: ${status.lastStartFailure}`, ...status };
    // Not started yet (it starts with the first session): it could be.
    const problem = await cliStartProblem(this.config.cli);
    return problem ? { ok: false, reason: problem, ...status } : { ok: true, ...status };
  }

  /**
   * The model provider as this instance sees it (issue 25): the calls it forwarded in the last minute
   * when there were any (a failing last call is failing at once, without waiting for a probe), else the
   * cheap probe. `source` says which; `traffic` is the window of real calls either way.
   */
  async providerCheck(): Promise<ReadinessCheck> {
    const { provider, githubToken } = this.config.cli;
    if (!provider && !githubToken) {
      return {
        ok: false,
        reason: 'no model provider is configured: set COPILOT_PROVIDER_BASE_URL (with COPILOT_PROVIDER_API_KEY) or COPILOT_GITHUB_TOKEN',
      };
    }
    const traffic = this.traffic.state();
    const kind = provider ? { kind: 'provider', type: provider.type } : { kind: 'github-token' };
    if (this.traffic.busySince(PROVIDER_TRAFFIC_RECENT_MS)) {
      // Reported, not gating (see the class comment).
      return {
        ok: !traffic.failing,
        gatesReadiness: false,
        ...kind,
        source: 'traffic',
        answering: !traffic.failing,
        ...(traffic.failing ? { reason: failingTrafficReason(traffic) } : {}),
        ...(traffic.lastSuccessAt ? { lastAnsweredAt: traffic.lastSuccessAt } : {}),
        traffic,
      };
    }
    // The CLI talks to GitHub itself; Switchboard does not call GitHub to check.
    if (!provider) return { ok: true, ...kind, source: 'none', answering: null, traffic };
    const { state, lastAnsweredAt, ...seen } = await this.providerProbe.reachability();
    const answeredAt = latest(lastAnsweredAt, traffic.lastSuccessAt);
    return {
      ok: state !== 'failing',
      gatesReadiness: false,
      ...kind,
      source: 'probe',
      answering: state === 'answering',
      ...seen,
      lastAnsweredAt: answeredAt,
      traffic,
    };
  }
}

/** Why the provider is failing by its last calls, and what to check. */
function failingTrafficReason(traffic: ProviderTrafficState): string {
  const what = traffic.lastFailureReason ?? `the model provider answered ${traffic.lastFailureStatus ?? 'with an error'}`;
  const status = traffic.lastFailureStatus;
  const hint =
    status === undefined
      ? 'check COPILOT_PROVIDER_BASE_URL and that the provider is up'
      : status === 401 || status === 403
        ? 'check COPILOT_PROVIDER_API_KEY'
        : status === 429
          ? 'the provider is limiting the rate of calls'
          : 'the provider is up but failing; check its own status';
  return `the last model call failed (${traffic.failures} of the last ${traffic.calls} failed): ${what}; ${hint}`;
}

/** The later of two ISO times. */
function latest(a: string | undefined, b: string | undefined): string | undefined {
  if (!a || !b) return a ?? b;
  return a > b ? a : b;
}

import { Inject, Injectable } from '@nestjs/common';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { cliStartProblem } from '../copilot-cli/cli-startability';
import { CopilotCliConnection } from '../copilot-cli/copilot-cli-connection';
import { DatabaseHealth } from '../database/database-health';
import { AsyncProjectionRunner, type AsyncProjectionStatus } from '../projections/async-projection-runner';
/** This many unexpected CLI exits within a minute is a crash loop, not a restart. */
const CRASH_LOOP_EXITS = 3;

export type ReadinessCheckName = 'database' | 'migrations' | 'projections' | 'copilotCli' | 'provider';

export interface ReadinessCheck {
  ok: boolean;
  /** Why it fails, in words an operator acts on. */
  reason?: string;
  [detail: string]: unknown;
}

export interface ReadinessReport {
  ready: boolean;
  /** Each failing check with its reason; empty when ready. */
  failing: Array<{ check: ReadinessCheckName; reason: string }>;
  checks: Record<ReadinessCheckName, ReadinessCheck>;
}

/**
 * What /health/ready answers: the service can take work now. The database takes writes, every
 * migration is applied (both judged by the dialect's DatabaseHealth), async projections are caught up (within SWITCHBOARD_READY_MAX_PROJECTION_LAG)
 * and none is failing, the CLI can be started (or reached), and a model provider is configured.
 */
@Injectable()
export class Readiness {
  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly database: DatabaseHealth,
    private readonly runner: AsyncProjectionRunner,
    private readonly cli: CopilotCliConnection,
  ) {}

  async check(): Promise<ReadinessReport> {
    const { database, migrations } = await this.database.check();
    const checks: Record<ReadinessCheckName, ReadinessCheck> = {
      database,
      migrations,
      projections: await this.projectionsCheck(),
      copilotCli: await this.cliCheck(),
      provider: this.providerCheck(),
    };
    const failing = (Object.entries(checks) as Array<[ReadinessCheckName, ReadinessCheck]>)
      .filter(([, c]) => !c.ok)
      .map(([check, c]) => ({ check, reason: c.reason ?? 'failing' }));
    return { ready: failing.length === 0, failing, checks };
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

  private providerCheck(): ReadinessCheck {
    const { provider, githubToken } = this.config.cli;
    if (provider) return { ok: true, kind: 'provider', type: provider.type };
    if (githubToken) return { ok: true, kind: 'github-token' };
    return {
      ok: false,
      reason: 'no model provider is configured: set COPILOT_PROVIDER_BASE_URL (with COPILOT_PROVIDER_API_KEY) or COPILOT_GITHUB_TOKEN',
    };
  }
}

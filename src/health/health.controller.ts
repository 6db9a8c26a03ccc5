import { Workspaces } from '../workspaces';
import { Controller, Get, HttpException, HttpStatus, Inject, Optional, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiTokenGuard, Public, DocumentedAnswers } from '../common';
import { PrincipalResolver } from '../identity';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { CopilotCliConnection } from '../copilot-cli';
import { DatabaseHealth } from '../database';
import { EventStore } from '../event-store';
import { InstanceLease } from '../instances';
import { ModelRoute } from '../model-calls';
import { AsyncProjectionRunner } from '../projections';
import { TraceExport, TRACES_OFF } from '../traces';
import { Readiness, type ReadinessCheckName, type ReadinessReport } from './readiness';
import { HEALTH_ANSWERS } from './health.api-answers';

/** Each check as a caller without the token sees it. */
type CheckSummary = Record<ReadinessCheckName, 'ok' | 'failing'>;

/**
 * The health routes are open so probes need no token, but their detail (the database file or the
 * PostgreSQL host, port, database, user and version, pids, host names, instance addresses, paths in
 * reasons) helps an attacker: when SWITCHBOARD_API_TOKEN is set, a request without it gets each
 * check as ok or failing only. Without a token the service listens on loopback and trusts its callers.
 */
@ApiTags('health')
@DocumentedAnswers(HEALTH_ANSWERS)
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: DatabaseHealth,
    private readonly store: EventStore,
    private readonly runner: AsyncProjectionRunner,
    private readonly cli: CopilotCliConnection,
    private readonly readiness: Readiness,
    private readonly lease: InstanceLease,
    private readonly token: ApiTokenGuard,
    private readonly principals: PrincipalResolver,
    private readonly modelRoute: ModelRoute,
    private readonly workspaces: Workspaces,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    // Absent with SWITCHBOARD_TRACES off (TracesModule not loaded).
    @Optional() private readonly traces?: TraceExport,
  ) {}

  /**
   * Open without a token. 200 when the database answers, 503 otherwise. With the token (or none
   * configured): the database, each async projection's state and lag, the CLI, the model calls (the
   * route, calls in flight, the provider from real traffic or the probe) and the instances, and
   * `degraded` listing what fails without making the service unready (the provider);
   * without it, `{status, checks: {<check>: ok | failing}}`.
   */
  @Public()
  @Get()
  @ApiOperation({ summary: 'Database, async projections and CLI in detail (with the token); ok or failing per check without it' })
  async health(@Req() request: Request, @Res() response: Response) {
    if (!(await this.showsDetail(request))) {
      const report = await this.readiness.check();
      const up = report.checks.database.ok;
      response.status(up ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json({ status: up ? 'ok' : 'error', checks: summary(report) });
      return;
    }
    try {
      // SQLite: file, journal mode, synchronous; PostgreSQL: host, database, pool, migrations applied.
      const described = await this.database.describe();
      const head = await this.store.headPosition();
      const live = await this.lease.liveInstances();
      const provider = await this.readiness.providerCheck();
      response.status(HttpStatus.OK).json({
        status: 'ok',
        // The provider failing does not make the service unready; alert on this list (as on /health/ready's).
        degraded: !provider.ok && provider.gatesReadiness === false ? [{ check: 'provider', reason: provider.reason ?? 'failing' }] : [],
        database: { status: 'up', ...described, headPosition: head, groupCommit: this.store.stats() },
        // state: catching-up | live | failing (with lastError, failingSince, nextRetryAt); /health/ready judges them.
        projections: await this.runner.status(),
        // issue 28: ended spans not sent yet, the oldest one's wait, the last export and, while the collector fails, why.
        traces: this.traces ? await this.traces.status() : TRACES_OFF,
        // Started on first use: `running: false` before any session is normal.
        copilotCli: this.cli.status(),
        // issue 25: whether model calls go through Switchboard (and why not), and the provider they reach.
        modelCalls: { route: this.cli.modelRoute(), inFlight: this.modelRoute.inFlight(), provider },
        // issue 42: where the worktrees are and the disk they use.
        workspaces: await this.workspaces.usage(),
        // This instance's lease, and every instance running on the database (from instance_leases).
        instance: {
          id: this.lease.instanceId,
          address: this.lease.address,
          liveInstances: live.map(({ instanceId, address, hostname, pid, startedAt, heartbeatAt, expiresAt }) => ({
            id: instanceId,
            address,
            hostname,
            pid,
            startedAt,
            heartbeatAt,
            expiresAt,
          })),
        },
      });
    } catch (error) {
      response.status(HttpStatus.SERVICE_UNAVAILABLE).json({ status: 'error', database: { status: 'down', error: (error as Error).message } });
    }
  }

  /** Open without a token. The process is up and serving HTTP; nothing else is checked (restart it when this fails). */
  @Public()
  @Get('live')
  @ApiOperation({ summary: 'Liveness: 200 while the process serves HTTP' })
  async live(@Req() request: Request) {
    if (!(await this.showsDetail(request))) return { status: 'live' };
    return { status: 'live', pid: process.pid, uptimeSeconds: Math.round(process.uptime()) };
  }

  /**
   * Open without a token. 200 when the service can take work: database writable, migrations applied,
   * async projections caught up and none failing, CLI startable, provider configured. 503 otherwise,
   * with each failing check: with the token (or none configured) why, and each check's detail;
   * without it the names only. A configured model provider that does not answer is `degraded`, not
   * failing: still 200 (see Readiness).
   */
  @Public()
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: 200 when it can take work, 503 naming each failing check' })
  async ready(@Req() request: Request, @Res() response: Response) {
    const report = await this.readiness.check();
    const status = report.ready ? 'ready' : 'not_ready';
    const detail = await this.showsDetail(request);
    response.status(report.ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json(
      detail
        ? { status, failing: report.failing, degraded: report.degraded, checks: report.checks }
        : {
            status,
            failing: report.failing.map(({ check }) => ({ check })),
            degraded: report.degraded.map(({ check }) => ({ check })),
            checks: summary(report),
          },
    );
  }

  /**
   * Detail for a caller the API would serve (the token, a named key, a session, or the open loopback).
   * A credential refused outright (a signed-in cookie sent cross-site) gets none. Keys and sessions are
   * read from the database: when that read fails (an outage this very route reports), only the
   * bootstrap token decides, as before keys existed; with sign-in configured nobody else is known then.
   */
  private async showsDetail(request: Request): Promise<boolean> {
    try {
      return (await this.principals.principalOrNone(request)) !== undefined;
    } catch (failure) {
      if (failure instanceof HttpException) return false;
      if (this.config.signIn.oidc && !this.config.apiToken) return false;
      return this.token.allows(request.headers.authorization);
    }
  }
}

function summary(report: ReadinessReport): CheckSummary {
  const entries = Object.entries(report.checks) as Array<[ReadinessCheckName, { ok: boolean }]>;
  return Object.fromEntries(entries.map(([name, check]) => [name, check.ok ? 'ok' : 'failing'])) as CheckSummary;
}

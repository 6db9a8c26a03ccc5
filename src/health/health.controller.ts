import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/auth/public.decorator';
import { CopilotCliConnection } from '../copilot-cli/copilot-cli-connection';
import { DatabaseHealth } from '../database/database-health';
import { EventStore } from '../event-store/event-store';
import { InstanceLease } from '../instances/instance-lease';
import { AsyncProjectionRunner } from '../projections/async-projection-runner';
import { Readiness } from './readiness';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: DatabaseHealth,
    private readonly store: EventStore,
    private readonly runner: AsyncProjectionRunner,
    private readonly cli: CopilotCliConnection,
    private readonly readiness: Readiness,
    private readonly lease: InstanceLease,
  ) {}

  /** Open without a token. 200 when the database answers, 503 otherwise; each async projection's state and lag. */
  @Public()
  @Get()
  @ApiOperation({ summary: 'Database, async projections and CLI in detail' })
  async health(@Res() response: Response) {
    try {
      // SQLite: file, journal mode, synchronous; PostgreSQL: host, database, pool, migrations applied.
      const described = await this.database.describe();
      const head = await this.store.headPosition();
      const live = await this.lease.liveInstances();
      response.status(HttpStatus.OK).json({
        status: 'ok',
        database: { status: 'up', ...described, headPosition: head, groupCommit: this.store.stats() },
        // state: catching-up | live | failing (with lastError, failingSince, nextRetryAt); /health/ready judges them.
        projections: await this.runner.status(),
        // Started on first use: `running: false` before any session is normal.
        copilotCli: this.cli.status(),
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
  live() {
    return { status: 'live', pid: process.pid, uptimeSeconds: Math.round(process.uptime()) };
  }

  /**
   * Open without a token. 200 when the service can take work: database writable, migrations applied,
   * async projections caught up and none failing, CLI startable, provider configured. 503 otherwise,
   * with each failing check and why.
   */
  @Public()
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: 200 when it can take work, 503 naming each failing check' })
  async ready(@Res() response: Response) {
    const report = await this.readiness.check();
    response
      .status(report.ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
      .json({ status: report.ready ? 'ready' : 'not_ready', failing: report.failing, checks: report.checks });
  }
}

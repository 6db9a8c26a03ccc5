import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/auth/public.decorator';
import { CopilotCliConnection } from '../copilot-cli/copilot-cli-connection';
import { SqliteDatabase } from '../database/sqlite-database';
import { EventStore } from '../event-store/event-store';
import { ProjectionRegistry } from '../event-store/projection-registry';
import { AsyncProjectionRunner } from '../projections/async-projection-runner';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly store: EventStore,
    private readonly registry: ProjectionRegistry,
    private readonly runner: AsyncProjectionRunner,
    private readonly cli: CopilotCliConnection,
  ) {}

  /** Open without a token. 200 when the database answers, 503 otherwise; lag shows a stuck async projection. */
  @Public()
  @Get()
  @ApiOperation({ summary: 'Liveness and database state' })
  health(@Res() response: Response) {
    try {
      const { connection, file } = this.database;
      const head = this.store.headPosition();
      const projections = this.registry.async().map((p) => {
        const position = this.runner.position(p.name);
        return { name: p.name, position, lag: head - position };
      });
      response.status(HttpStatus.OK).json({
        status: 'ok',
        database: {
          status: 'up',
          file,
          journalMode: connection.pragma('journal_mode', { simple: true }),
          synchronous: ['OFF', 'NORMAL', 'FULL', 'EXTRA'][Number(connection.pragma('synchronous', { simple: true }))],
          headPosition: head,
          groupCommit: this.store.stats(),
        },
        projections,
        // Started on first use: `running: false` before any session is normal.
        copilotCli: this.cli.status(),
      });
    } catch (error) {
      response
        .status(HttpStatus.SERVICE_UNAVAILABLE)
        .json({ status: 'error', database: { status: 'down', error: (error as Error).message } });
    }
  }
}

import { DynamicModule, Module, type Provider } from '@nestjs/common';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store';
import { pgProjectionOf } from '../event-store/postgres/pg-projection';
import { ProjectionRegistry } from '../event-store/projection-registry';
import { AsyncProjectionRunner } from './async-projection-runner';
import { PgAsyncProjectionRunner } from './pg-async-projection-runner';
import { PgProjectionRebuilder } from './rebuild-projection/pg-projection-rebuilder';
import { ProjectionRebuilder } from './rebuild-projection/projection-rebuilder';
import { RebuildProjectionHandler } from './rebuild-projection/rebuild-projection.handler';
import { SqliteProjectionRebuilder } from './rebuild-projection/sqlite-projection-rebuilder';
import { SqliteAsyncProjectionRunner } from './sqlite-async-projection-runner';

/**
 * Runs async projections from their checkpoints (server) and rebuilds any projection from
 * position 0, on the configured database. The maintenance CLI registers the rebuild only, so it
 * never competes with a runner.
 */
@Module({})
export class ProjectionsModule {
  static forServer(config: SwitchboardConfig): DynamicModule {
    const runner: Provider[] = config.postgres
      ? [
          {
            provide: AsyncProjectionRunner,
            inject: [PostgresEventStore, ProjectionRegistry, SWITCHBOARD_CONFIG],
            useFactory: (store: PostgresEventStore, registry: ProjectionRegistry, { resilience }: SwitchboardConfig) =>
              // The registry is filled at module init: the runner reads it when it starts, at bootstrap.
              new PgAsyncProjectionRunner(store, () => registry.async().map((p) => registry.batchForm(p.name) ?? pgProjectionOf(p)), {
                retryMaxMs: resilience.projectionRetryMaxMs,
              }),
          },
        ]
      : [SqliteAsyncProjectionRunner, { provide: AsyncProjectionRunner, useExisting: SqliteAsyncProjectionRunner }];
    return {
      module: ProjectionsModule,
      global: true,
      providers: [...runner, RebuildProjectionHandler, rebuilder(config)],
      exports: [AsyncProjectionRunner],
    };
  }

  static forMaintenance(config: SwitchboardConfig): DynamicModule {
    return { module: ProjectionsModule, providers: [RebuildProjectionHandler, rebuilder(config)] };
  }
}

function rebuilder(config: SwitchboardConfig): Provider {
  return { provide: ProjectionRebuilder, useClass: config.postgres ? PgProjectionRebuilder : SqliteProjectionRebuilder };
}

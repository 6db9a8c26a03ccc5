import { DynamicModule, Module, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { PostgresEventStore, InlineProjectionHook } from '../event-store';
import { AsyncProjectionRunner } from './async-projection-runner';
import { InlineProjections } from './inline-projections';
import { PgAsyncProjectionRunner } from './pg-async-projection-runner';
import { pgProjectionOf } from './postgres-projection';
import { ProjectionRegistry } from './projection-registry';
import { PgProjectionRebuilder } from './rebuild-projection/pg-projection-rebuilder';
import { ProjectionRebuilder } from './rebuild-projection/projection-rebuilder';
import { RebuildProjectionHandler } from './rebuild-projection/rebuild-projection.handler';
import { SqliteProjectionRebuilder } from './rebuild-projection/sqlite-projection-rebuilder';
import { SqliteAsyncProjectionRunner } from './sqlite-async-projection-runner';

/**
 * The projections context: the registry (every @ReadModelProjection() provider, found at init), the
 * inline hook the event store calls in each append's transaction, the async runner (server) and the
 * rebuild of any projection from position 0, on the configured database. The maintenance CLI
 * registers no runner, so it never competes with one.
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
              new PgAsyncProjectionRunner(store, () => registry.async().map(pgProjectionOf), {
                retryMaxMs: resilience.projectionRetryMaxMs,
              }),
          },
        ]
      : [SqliteAsyncProjectionRunner, { provide: AsyncProjectionRunner, useExisting: SqliteAsyncProjectionRunner }];
    return {
      module: ProjectionsModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [...registryProviders, ...runner, RebuildProjectionHandler, rebuilder(config)],
      exports: [ProjectionRegistry, InlineProjectionHook, AsyncProjectionRunner],
    };
  }

  static forMaintenance(config: SwitchboardConfig): DynamicModule {
    return {
      module: ProjectionsModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [...registryProviders, RebuildProjectionHandler, rebuilder(config)],
      exports: [ProjectionRegistry, InlineProjectionHook],
    };
  }
}

/** The registry and, over it, the hook the event store runs inline (global: EventStoreModule injects it). */
const registryProviders: Provider[] = [ProjectionRegistry, { provide: InlineProjectionHook, useClass: InlineProjections }];

function rebuilder(config: SwitchboardConfig): Provider {
  return { provide: ProjectionRebuilder, useClass: config.postgres ? PgProjectionRebuilder : SqliteProjectionRebuilder };
}

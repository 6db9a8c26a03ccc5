import { DynamicModule, Module } from '@nestjs/common';
import { AsyncProjectionRunner } from './async-projection-runner';
import { RebuildProjectionHandler } from './rebuild-projection/rebuild-projection.handler';

/**
 * Runs async projections from their checkpoints (server) and rebuilds any projection from
 * position 0. The maintenance CLI registers the rebuild only, so it never competes with a runner.
 */
@Module({})
export class ProjectionsModule {
  static forServer(): DynamicModule {
    return {
      module: ProjectionsModule,
      global: true,
      providers: [AsyncProjectionRunner, RebuildProjectionHandler],
      exports: [AsyncProjectionRunner],
    };
  }

  static forMaintenance(): DynamicModule {
    return { module: ProjectionsModule, providers: [RebuildProjectionHandler] };
  }
}

import { Module } from '@nestjs/common';
import { AsyncProjectionRunner } from './async-projection-runner';
import { RebuildProjectionHandler } from './rebuild-projection/rebuild-projection.handler';

/** Runs async projections from their checkpoints and rebuilds any projection from position 0. */
@Module({
  providers: [AsyncProjectionRunner, RebuildProjectionHandler],
  exports: [AsyncProjectionRunner],
})
export class ProjectionsModule {}

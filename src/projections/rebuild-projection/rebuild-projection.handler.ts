import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../common';
import { ProjectionRegistry } from '../projection-registry';
import { ProjectionRebuilder } from './projection-rebuilder';
import { RebuildProjection, RebuildProjectionResult } from './rebuild-projection.command';

/** Empties a projection's read model and replays the log into it, in one transaction of the configured database. */
@CommandHandler(RebuildProjection)
export class RebuildProjectionHandler implements ICommandHandler<RebuildProjection, RebuildProjectionResult> {
  constructor(
    private readonly registry: ProjectionRegistry,
    private readonly rebuilder: ProjectionRebuilder,
  ) {}

  async execute({ projectionName, onProgress }: RebuildProjection): Promise<RebuildProjectionResult> {
    const projection = this.registry.get(projectionName);
    if (!projection) {
      throw new NotFoundError(`Unknown projection ${projectionName}; known projections: ${this.registry.names().join(', ')}`);
    }
    return this.rebuilder.rebuild(projection, onProgress);
  }
}

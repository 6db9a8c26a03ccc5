import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../common/domain-error';
import * as sqliteSchema from '../../database/schema';
import { SqliteDatabase } from '../../database/sqlite-database';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { projectionHandles, runProjectionSync } from '../../event-store/projection';
import { ProjectionRegistry } from '../../event-store/projection-registry';
import { writeCheckpoint } from '../projection-checkpoints';
import { RebuildProjection, RebuildProjectionResult } from './rebuild-projection.command';

const PAGE = 1000;

/**
 * One IMMEDIATE transaction: the read model is either the old one or the fully rebuilt one, never a
 * mix, and no append can slip in between the replay and the swap.
 */
@CommandHandler(RebuildProjection)
export class RebuildProjectionHandler implements ICommandHandler<RebuildProjection, RebuildProjectionResult> {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly store: SqliteEventStore,
    private readonly registry: ProjectionRegistry,
  ) {}

  async execute({ projectionName, onProgress }: RebuildProjection): Promise<RebuildProjectionResult> {
    const projection = this.registry.get(projectionName);
    if (!projection) {
      throw new NotFoundError(`Unknown projection ${projectionName}; known projections: ${this.registry.names().join(', ')}`);
    }
    const { orm, connection, readModels } = this.database;
    return connection
      .transaction((): RebuildProjectionResult => {
        for (const table of projection.tables) orm.delete(sqliteSchema[table]).run();
        const total = this.store.headPositionNow();
        let position = 0;
        let applied = 0;
        for (;;) {
          const page = this.store.readAllNow({ after: position, limit: PAGE });
          if (page.length === 0) break;
          for (const event of page) {
            if (projectionHandles(projection, event)) runProjectionSync(projection.apply(event, readModels));
          }
          position = page[page.length - 1].globalPosition;
          applied += page.length;
          onProgress?.({ applied, total });
        }
        if (projection.mode === 'async') writeCheckpoint(orm, projection.name, position);
        return { projection: projection.name, eventsApplied: applied, position };
      })
      .immediate();
  }
}

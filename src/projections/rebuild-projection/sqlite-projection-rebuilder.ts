import { Injectable } from '@nestjs/common';
import * as sqliteSchema from '../../database/schema';
import { SqliteDatabase } from '../../database';
import { eventsFor, SqliteEventStore } from '../../event-store';
import { type Projection, runProjectionSync } from '../projection';
import { writeCheckpoint } from '../projection-checkpoints';
import { ProjectionRebuilder } from './projection-rebuilder';
import type { RebuildProgress, RebuildProjectionResult } from './rebuild-projection.command';

const PAGE = 1000;

/** One IMMEDIATE transaction: no append can slip in between the replay and the swap. */
@Injectable()
export class SqliteProjectionRebuilder extends ProjectionRebuilder {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly store: SqliteEventStore,
  ) {
    super();
  }

  rebuild(projection: Projection, onProgress?: (progress: RebuildProgress) => void): Promise<RebuildProjectionResult> {
    const { orm, connection, readModels } = this.database;
    try {
      const result = connection
        .transaction((): RebuildProjectionResult => {
          for (const table of projection.tables) orm.delete(sqliteSchema[table]).run();
          const total = this.store.headPositionNow();
          let position = 0;
          let applied = 0;
          for (;;) {
            const page = this.store.readAllNow({ after: position, limit: PAGE });
            if (page.length === 0) break;
            const handled = eventsFor(projection, page);
            if (handled.length > 0) runProjectionSync(projection.handle(handled, readModels));
            position = page[page.length - 1].globalPosition;
            applied += page.length;
            onProgress?.({ applied, total });
          }
          if (projection.mode === 'async') writeCheckpoint(orm, projection.name, position);
          return { projection: projection.name, eventsApplied: applied, position };
        })
        .immediate();
      return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

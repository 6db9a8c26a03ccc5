import type { Projection } from '../projection';
import type { RebuildProgress, RebuildProjectionResult } from './rebuild-projection.command';

/**
 * How a projection is rebuilt on the configured database: its tables emptied and the whole log
 * replayed into them in ONE transaction (readers see the old read model or the rebuilt one, never a
 * mix), an async projection's checkpoint moved to where the replay ended, and no append or runner
 * batch slipping in between. `ProjectionsModule` binds it to `SqliteProjectionRebuilder` or `PgProjectionRebuilder`.
 */
export abstract class ProjectionRebuilder {
  abstract rebuild(projection: Projection, onProgress?: (progress: RebuildProgress) => void): Promise<RebuildProjectionResult>;
}

import type { PostgresEventStore } from '../event-store';
import { pgTableNames } from './postgres-projection';
import type { Projection } from './projection';
import type { ProjectionRegistry } from './projection-registry';
import { PgProjectionRebuilder } from './rebuild-projection/pg-projection-rebuilder';

export interface RebuiltReadModel {
  projection: string;
  tables: readonly string[];
  position: number;
}

/**
 * Rebuilds every read model of the registry on PostgreSQL, one after the other, each in one
 * transaction (PgProjectionRebuilder: tables emptied, the log replayed, an async projection's
 * checkpoint moved to the end of the replay, so its runner goes on from there).
 */
export async function rebuildReadModels(store: PostgresEventStore, registry: ProjectionRegistry): Promise<RebuiltReadModel[]> {
  const rebuilder = new PgProjectionRebuilder(store);
  const rebuilt: RebuiltReadModel[] = [];
  for (const name of registry.names()) {
    const projection = registry.get(name) as Projection;
    const { position } = await rebuilder.rebuild(projection);
    rebuilt.push({ projection: name, tables: pgTableNames(projection), position });
  }
  return rebuilt;
}

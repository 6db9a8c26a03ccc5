import type { PgProjection } from '../event-store/postgres/pg-projection';
import type { PostgresEventStore } from '../event-store/postgres/postgres-event-store';
import { PgAsyncProjectionRunner } from './pg-async-projection-runner';

export interface RebuiltReadModel {
  projection: string;
  tables: readonly string[];
  position: number;
}

/**
 * Rebuilds each read model through the async runner (tables emptied and the checkpoint set to 0 in
 * one transaction, then replayed and checkpointed batch by batch), waiting until it reached the head.
 * The checkpoint it leaves is right for the projection run async afterwards; inline, it is unused.
 */
export async function rebuildReadModels(target: PostgresEventStore, projections: readonly PgProjection[]): Promise<RebuiltReadModel[]> {
  const runner = new PgAsyncProjectionRunner(target, projections, { batchSize: 1000, retryMaxMs: 1000 });
  const rebuilt: RebuiltReadModel[] = [];
  try {
    for (const projection of projections) {
      await runner.rebuild(projection.name);
      const head = await target.headPosition();
      for (;;) {
        const status = (await runner.status()).find((s) => s.name === projection.name);
        if (status?.lastError) throw new Error(`rebuilding ${projection.name} failed: ${status.lastError}`);
        if (runner.position(projection.name) >= head) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      rebuilt.push({ projection: projection.name, tables: projection.tables, position: runner.position(projection.name) });
    }
  } finally {
    await runner.stop();
  }
  return rebuilt;
}

import { eq } from 'drizzle-orm';
import { projectionCheckpoints } from '../database/schema';
import type { Orm } from '../database';

export function readCheckpoint(orm: Orm, projectionName: string): number {
  const row = orm
    .select({ position: projectionCheckpoints.position })
    .from(projectionCheckpoints)
    .where(eq(projectionCheckpoints.projectionName, projectionName))
    .get();
  return row?.position ?? 0;
}

export function writeCheckpoint(orm: Orm, projectionName: string, position: number): void {
  const updatedAt = new Date().toISOString();
  orm
    .insert(projectionCheckpoints)
    .values({ projectionName, position, updatedAt })
    .onConflictDoUpdate({ target: projectionCheckpoints.projectionName, set: { position, updatedAt } })
    .run();
}

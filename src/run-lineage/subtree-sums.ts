import { and, count, gte, lt, type SQL, sql } from 'drizzle-orm';
import { jsonArrayRows, tableIndexedBy, type ReadModelDatabase, type ReadTables } from '../database';

/** A subtree's run count and one number per named sum. */
export type SubtreeSums<K extends string> = { runs: number } & Record<K, number>;

/**
 * Sums over the runs of each subtree under `paths` (a run's own path included), in one statement: each
 * path is one range scan of runs_path_idx. `sumsOf` names each sum's SQL over the `runs` table. A path
 * with no runs is `undefined` in the answer, so each caller says what "nothing" is.
 */
export async function sumsPerSubtree<K extends string>(
  db: ReadModelDatabase,
  paths: readonly string[],
  sumsOf: (runs: ReadTables['runs']) => Record<K, SQL<number>>,
): Promise<Array<SubtreeSums<K> | undefined>> {
  if (paths.length === 0) return [];
  const { runs } = db.tables;
  const path = sql<string>`p.value`;
  // Selected under one key, not spread: drizzle cannot resolve the row type of generic fields, so it is named below.
  const rows = await db.orm
    .select({ path, runs: count(), sums: sumsOf(runs) })
    .from(jsonArrayRows(db, [...new Set(paths)], 'p'))
    .crossJoin(tableIndexedBy(db, runs, 'runs_path_idx'))
    .where(and(gte(runs.path, path), lt(runs.path, sql`${path} || '~'`)))
    .groupBy(path);
  const byPath = new Map(rows.map((row): [string, SubtreeSums<K>] => [row.path, { runs: row.runs, ...(row.sums as Record<K, number>) }]));
  return paths.map((path) => byPath.get(path));
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, count, gte, lt, sql } from 'drizzle-orm';
import { jsonArrayRows, tableIndexedBy } from '../../../database/keyed-batch';
import { ReadModelDatabase } from '../../../database/read-model-database';
import type { SubtreeSpend } from '../../runs-read-model';
import { GetSubtreeSpend } from './get-subtree-spend.query';

const NOTHING: SubtreeSpend = { runs: 0, tokens: 0, toolCalls: 0, durationMs: 0 };

@QueryHandler(GetSubtreeSpend)
export class GetSubtreeSpendHandler implements IQueryHandler<GetSubtreeSpend, SubtreeSpend[]> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ paths }: GetSubtreeSpend): Promise<SubtreeSpend[]> {
    if (paths.length === 0) return [];
    const { runs } = this.db.tables;
    const path = sql<string>`p.value`;
    const now = new Date().toISOString();
    // A running run adds its current launch's time up to `now` (what the budget guard counts), in whole ms.
    const launchMs =
      this.db.dialect === 'sqlite'
        ? sql`max(0, cast(round((julianday(${now}) - julianday(${runs.launchedAt})) * 86400000) as integer))`
        : sql`GREATEST(0, round(EXTRACT(EPOCH FROM (${now}::timestamptz - ${runs.launchedAt}::timestamptz)) * 1000))`;
    // Any number of subtrees in one statement, each one range scan of runs_path_idx.
    const rows = await this.db.orm
      .select({
        path,
        runs: count(),
        tokens: sql<number>`SUM(${runs.inputTokens} + ${runs.outputTokens})`.mapWith(Number),
        toolCalls: sql<number>`SUM(${runs.toolCalls})`.mapWith(Number),
        durationMs: sql<number>`SUM(${runs.durationMs} + CASE WHEN ${runs.status} = 'running' THEN ${launchMs} ELSE 0 END)`.mapWith(Number),
      })
      .from(jsonArrayRows(this.db, [...new Set(paths)], 'p'))
      .crossJoin(tableIndexedBy(this.db, runs, 'runs_path_idx'))
      .where(and(gte(runs.path, path), lt(runs.path, sql`${path} || '~'`)))
      .groupBy(path);
    const byPath = new Map(rows.map(({ path, ...spend }) => [path, spend]));
    return paths.map((path) => byPath.get(path) ?? NOTHING);
  }
}

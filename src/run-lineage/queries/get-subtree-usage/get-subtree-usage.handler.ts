import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { and, count, gte, lt, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { jsonArrayRows, tableIndexedBy } from '../../../database/keyed-batch';
import { ReadModelDatabase } from '../../../database/read-model-database';
import { NO_USAGE, type RunUsage } from '../../run-lineage';
import { GetSubtreeUsage } from './get-subtree-usage.query';

@QueryHandler(GetSubtreeUsage)
export class GetSubtreeUsageHandler implements IQueryHandler<GetSubtreeUsage, RunUsage[]> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ paths }: GetSubtreeUsage): Promise<RunUsage[]> {
    if (paths.length === 0) return [];
    const { runs } = this.db.tables;
    const path = sql<string>`p.value`;
    // Sums come back as numeric text on PostgreSQL: mapped to numbers on both.
    const total = (column: PgColumn) => sql<number>`SUM(${column})`.mapWith(Number);
    // Any number of subtrees in one statement: each path is one range scan of runs_path_idx.
    const rows = await this.db.orm
      .select({
        path,
        runs: count(),
        inputTokens: total(runs.inputTokens),
        outputTokens: total(runs.outputTokens),
        toolCalls: total(runs.toolCalls),
        durationMs: total(runs.durationMs),
      })
      .from(jsonArrayRows(this.db, [...new Set(paths)], 'p'))
      .crossJoin(tableIndexedBy(this.db, runs, 'runs_path_idx'))
      .where(and(gte(runs.path, path), lt(runs.path, sql`${path} || '~'`)))
      .groupBy(path);
    const byPath = new Map(rows.map(({ path, ...usage }) => [path, usage]));
    return paths.map((path) => byPath.get(path) ?? NO_USAGE);
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { sql } from 'drizzle-orm';
import { ReadModelDatabase } from '../../../database';
import type { SubtreeSpend } from '../../runs-read-model';
import { sumsPerSubtree } from '../../subtree-sums';
import { GetSubtreeSpend } from './get-subtree-spend.query';

const NOTHING: SubtreeSpend = { runs: 0, tokens: 0, toolCalls: 0, durationMs: 0 };

@QueryHandler(GetSubtreeSpend)
export class GetSubtreeSpendHandler implements IQueryHandler<GetSubtreeSpend, SubtreeSpend[]> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ paths }: GetSubtreeSpend): Promise<SubtreeSpend[]> {
    const now = new Date().toISOString();
    const spends = await sumsPerSubtree(this.db, paths, (runs) => {
      // A running run adds its current launch's time up to `now` (what the budget guard counts), in whole ms.
      const launchMs =
        this.db.dialect === 'sqlite'
          ? sql`max(0, cast(round((julianday(${now}) - julianday(${runs.launchedAt})) * 86400000) as integer))`
          : sql`GREATEST(0, round(EXTRACT(EPOCH FROM (${now}::timestamptz - ${runs.launchedAt}::timestamptz)) * 1000))`;
      return {
        tokens: sql<number>`SUM(${runs.inputTokens} + ${runs.outputTokens})`.mapWith(Number),
        toolCalls: sql<number>`SUM(${runs.toolCalls})`.mapWith(Number),
        durationMs: sql<number>`SUM(${runs.durationMs} + CASE WHEN ${runs.status} = 'running' THEN ${launchMs} ELSE 0 END)`.mapWith(Number),
      };
    });
    return spends.map((spend) => spend ?? NOTHING);
  }
}

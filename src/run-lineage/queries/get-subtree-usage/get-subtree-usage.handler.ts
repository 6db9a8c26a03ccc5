import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ReadModelDatabase } from '../../../database';
import { NO_USAGE, type RunUsage } from '../../run-lineage';
import { sumsPerSubtree } from '../../subtree-sums';
import { GetSubtreeUsage } from './get-subtree-usage.query';

// Sums come back as numeric text on PostgreSQL: mapped to numbers on both.
const total = (column: PgColumn) => sql<number>`SUM(${column})`.mapWith(Number);

@QueryHandler(GetSubtreeUsage)
export class GetSubtreeUsageHandler implements IQueryHandler<GetSubtreeUsage, RunUsage[]> {
  constructor(private readonly db: ReadModelDatabase) {}

  async execute({ paths }: GetSubtreeUsage): Promise<RunUsage[]> {
    const usages = await sumsPerSubtree(this.db, paths, (runs) => ({
      inputTokens: total(runs.inputTokens),
      outputTokens: total(runs.outputTokens),
      toolCalls: total(runs.toolCalls),
      durationMs: total(runs.durationMs),
    }));
    return usages.map((usage) => usage ?? NO_USAGE);
  }
}

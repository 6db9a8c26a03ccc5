import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type Database from 'better-sqlite3';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { NO_USAGE, type RunUsage } from '../../run-lineage';
import { GetSubtreeUsage } from './get-subtree-usage.query';

@QueryHandler(GetSubtreeUsage)
export class GetSubtreeUsageHandler implements IQueryHandler<GetSubtreeUsage, RunUsage[]> {
  private readonly statement: Database.Statement;

  constructor(database: SqliteDatabase) {
    // Any number of subtrees in one statement: each path is one range scan of runs_path_idx.
    this.statement = database.connection.prepare(
      `SELECT p.value AS path, COUNT(*) AS runs, SUM(r.input_tokens) AS inputTokens, SUM(r.output_tokens) AS outputTokens,
              SUM(r.tool_calls) AS toolCalls, SUM(r.duration_ms) AS durationMs
       FROM json_each(?) AS p CROSS JOIN runs AS r INDEXED BY runs_path_idx
       WHERE r.path >= p.value AND r.path < p.value || '~'
       GROUP BY p.value`,
    );
  }

  async execute({ paths }: GetSubtreeUsage): Promise<RunUsage[]> {
    if (paths.length === 0) return [];
    const unique = [...new Set(paths)];
    const rows = this.statement.all(JSON.stringify(unique)) as Array<RunUsage & { path: string }>;
    const byPath = new Map(rows.map(({ path, ...usage }) => [path, usage]));
    return paths.map((path) => byPath.get(path) ?? NO_USAGE);
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type Database from 'better-sqlite3';
import { SqliteDatabase } from '../../../database/sqlite-database';
import type { SubtreeSpend } from '../../runs-read-model';
import { GetSubtreeSpend } from './get-subtree-spend.query';

const NOTHING: SubtreeSpend = { runs: 0, tokens: 0, toolCalls: 0, durationMs: 0 };

@QueryHandler(GetSubtreeSpend)
export class GetSubtreeSpendHandler implements IQueryHandler<GetSubtreeSpend, SubtreeSpend[]> {
  private readonly statement: Database.Statement;

  constructor(database: SqliteDatabase) {
    // Any number of subtrees in one statement, each one range scan of runs_path_idx; a running run adds
    // its current launch's time up to `now` (what the budget guard counts).
    this.statement = database.connection.prepare(
      `SELECT p.value AS path, COUNT(*) AS runs, SUM(r.input_tokens + r.output_tokens) AS tokens, SUM(r.tool_calls) AS toolCalls,
              SUM(r.duration_ms + CASE WHEN r.status = 'running'
                    THEN max(0, cast(round((julianday(@now) - julianday(r.launched_at)) * 86400000) as integer)) ELSE 0 END) AS durationMs
       FROM json_each(@paths) AS p CROSS JOIN runs AS r INDEXED BY runs_path_idx
       WHERE r.path >= p.value AND r.path < p.value || '~'
       GROUP BY p.value`,
    );
  }

  async execute({ paths }: GetSubtreeSpend): Promise<SubtreeSpend[]> {
    if (paths.length === 0) return [];
    const rows = this.statement.all({ paths: JSON.stringify([...new Set(paths)]), now: new Date().toISOString() }) as Array<
      SubtreeSpend & { path: string }
    >;
    const byPath = new Map(rows.map(({ path, ...spend }) => [path, spend]));
    return paths.map((path) => byPath.get(path) ?? NOTHING);
  }
}

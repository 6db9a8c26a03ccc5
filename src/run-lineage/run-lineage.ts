import { getTableColumns } from 'drizzle-orm';
import { runs } from '../database/schema';

/** A row of the `runs` read model. */
export type RunRow = typeof runs.$inferSelect;

/**
 * spec: sub-agent-delegation, lineage. A run's `path` is `/<root>/.../<self>/` (uuid v7 ids: lowercase
 * hex and dashes). Its subtree is the index range `[path, path + '~')`: '~' sorts after every character
 * an id or '/' can have. Its ancestors are the ids in its path.
 */
export function subtreeRange(path: string): { from: string; to: string } {
  return { from: path, to: `${path}~` };
}

/** Ids of a run's ancestors, root first, without the run itself. */
export function ancestorIdsOf(path: string): string[] {
  const ids = path.split('/').filter((part) => part.length > 0);
  return ids.slice(0, -1);
}

/** Own totals of one run, or summed over a subtree. */
export interface RunUsage {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
  durationMs: number;
}

export const NO_USAGE: RunUsage = { runs: 0, inputTokens: 0, outputTokens: 0, toolCalls: 0, durationMs: 0 };

export function ownUsage(run: Pick<RunRow, 'inputTokens' | 'outputTokens' | 'toolCalls' | 'durationMs'>): RunUsage {
  return { runs: 1, inputTokens: run.inputTokens, outputTokens: run.outputTokens, toolCalls: run.toolCalls, durationMs: run.durationMs };
}

const columns = Object.entries(getTableColumns(runs));

/** The select list of a raw `runs` query, aliased to RunRow's keys (`r.` is the table's alias). */
export const RUN_COLUMNS_SQL = columns.map(([key, column]) => `r.${column.name} AS "${key}"`).join(', ');

const booleanKeys = columns.filter(([, column]) => column.dataType === 'boolean').map(([key]) => key);

/** A row read with RUN_COLUMNS_SQL: SQLite gives booleans as 0/1. */
export function toRunRow(raw: Record<string, unknown>): RunRow {
  for (const key of booleanKeys) raw[key] = raw[key] === 1 || raw[key] === true;
  return raw as RunRow;
}

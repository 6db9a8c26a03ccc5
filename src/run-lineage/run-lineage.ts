import type { ReadTables } from '../database';

/** A row of the `runs` read model (the same JavaScript types on both databases). */
export type RunRow = ReadTables['runs']['$inferSelect'];

/**
 * spec: sub-agent-delegation, lineage. A run's `path` is `/<root>/.../<self>/` (uuid v7 ids: lowercase
 * hex and dashes). Its subtree is the index range `[path, path + '~')`: '~' sorts after every character
 * an id or '/' can have in byte order (SQLite's BINARY; on PostgreSQL `runs.path` is `COLLATE "C"`,
 * migrations/postgres/0003: a linguistic collation ignores '/' and '-' and would break the range).
 * Its ancestors are the ids in its path.
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

// The Changes view's folds: the service's files, merges and checkpoints in words, and its unified diff
// split per file by react-diff-view's parser. Pure: the components render what these return.

import { type FileData, parseDiff } from 'react-diff-view';
import type { Checkpoint, CheckpointCause, FileChange, FileStatus, MergeOutcome, WorkspaceHistory, WorkspaceMerge } from './changes-api';

export const STATUS_WORDS: Record<FileStatus, string> = {
  added: 'added',
  modified: 'modified',
  deleted: 'deleted',
  renamed: 'renamed',
  'type-changed': 'type changed',
};

/** The first 7 characters of a commit, as git shows one. */
export function shortCommit(commit: string): string {
  return commit.slice(0, 7);
}

/** `+3 −1`, or `binary` (git counts no lines of a binary file). */
export function lineCounts(file: Pick<FileChange, 'additions' | 'deletions' | 'binary'>): { additions: string; deletions: string } | 'binary' {
  if (file.binary) return 'binary';
  return { additions: `+${file.additions}`, deletions: `\u2212${file.deletions}` };
}

/** `3 files, +12 −4` over a list of files. */
export function filesSummary(files: readonly FileChange[]): string {
  const additions = files.reduce((sum, f) => sum + (f.binary ? 0 : f.additions), 0);
  const deletions = files.reduce((sum, f) => sum + (f.binary ? 0 : f.deletions), 0);
  return `${files.length} ${files.length === 1 ? 'file' : 'files'}, +${additions} \u2212${deletions}`;
}

export const OUTCOME_WORDS: Record<MergeOutcome, string> = {
  merged: 'merged',
  'up-to-date': 'up to date',
  conflicted: 'conflicted',
  failed: 'failed',
};

/** What a merge did, in a line: its files, its conflicts or git's words. */
export function mergeWords(merge: WorkspaceMerge): string {
  switch (merge.outcome) {
    case 'merged':
      return merge.files.length === 0 ? 'merged, no file changed' : `merged ${filesSummary(merge.files)}`;
    case 'up-to-date':
      return 'nothing to merge: already up to date';
    case 'conflicted':
      return `conflicts left in ${merge.conflicts.join(', ') || 'the worktree'}`;
    case 'failed':
      return `not merged: ${merge.error ?? 'git failed'}`;
  }
}

/** The conflicted merges, each with the run whose branch conflicted and the paths left with markers. */
export function conflictsOf(merges: readonly WorkspaceMerge[]): Array<{ runId?: string; sessionId: string; paths: string[] }> {
  return merges.filter((m) => m.outcome === 'conflicted').map((m) => ({ runId: m.runId, sessionId: m.sessionId, paths: m.conflicts }));
}

/** Every path some merge left conflicted: the file list flags them. */
export function conflictedPaths(merges: readonly WorkspaceMerge[]): Set<string> {
  return new Set(merges.filter((m) => m.outcome === 'conflicted').flatMap((m) => m.conflicts));
}

/**
 * The merges a session's page lists: its own (when it is itself a run's thread) and those of the runs it
 * started, which each run's history holds (a merge is recorded on the merged run's workspace); one per
 * run's branch, in the order given.
 */
export function mergesOf(own: readonly WorkspaceMerge[], runs: ReadonlyArray<WorkspaceHistory | null | undefined>): WorkspaceMerge[] {
  const seen = new Set<string>();
  const merges: WorkspaceMerge[] = [];
  for (const merge of [...own, ...runs.flatMap((h) => h?.merges ?? [])]) {
    const key = `${merge.sessionId}>${merge.intoSessionId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    merges.push(merge);
  }
  return merges;
}

export const CAUSE_WORDS: Record<CheckpointCause, string> = {
  tool: 'after a tool call',
  'turn-end': 'at the end of a turn',
  recovered: 'recovered after a restart',
  'before-merge': 'before a merge',
};

export interface CheckpointRow {
  key: string;
  commit: string;
  short: string;
  cause: string;
  toolName?: string;
  toolCallId?: string;
  runId?: string;
  files: string;
  paths: string[];
}

/** The checkpoints that hold files, oldest first (an empty commit before a merge says nothing). */
export function checkpointRows(checkpoints: readonly Checkpoint[]): CheckpointRow[] {
  return checkpoints
    .filter((c) => c.files.length > 0)
    .map((c) => ({
      key: c.commit,
      commit: c.commit,
      short: shortCommit(c.commit),
      cause: CAUSE_WORDS[c.cause] ?? c.cause,
      toolName: c.toolName,
      toolCallId: c.toolCallId,
      runId: c.runId,
      files: filesSummary(c.files),
      paths: c.files.map((f) => f.path),
    }));
}

/** One file of a unified diff, ready for react-diff-view's `Diff`. */
export interface DiffFile extends FileData {
  key: string;
  /** Its path now (its old path when it was deleted). */
  path: string;
}

/** The unified diff split per file; `only`: the files kept (a run's own files out of its worktree's diff). */
export function diffFiles(text: string, only?: ReadonlySet<string>): DiffFile[] {
  if (!text.trim()) return [];
  return parseDiff(text)
    .map((file) => {
      const path = file.newPath && file.newPath !== '/dev/null' ? file.newPath : file.oldPath;
      return { ...file, path, key: `${file.oldPath}>${file.newPath}` };
    })
    .filter((file) => !only || only.has(file.path));
}

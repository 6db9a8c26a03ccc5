import { gitIn } from './git-command';
import { fileChanges, type FileChange, unifiedDiff } from './tree-diff';
import { workingTree } from './working-state';

/** What changed in `worktree` since `baseCommit`: its commits and what is not committed yet (untracked included). */
export async function changesSince(worktree: string, baseCommit: string): Promise<FileChange[]> {
  const git = await gitIn(worktree);
  return fileChanges(git, baseCommit, await workingTree(git));
}

/** The unified diff of `worktree`'s current files against `baseCommit` (binary files as "Binary files ... differ"). */
export async function diffSince(worktree: string, baseCommit: string, file?: string): Promise<string> {
  const git = await gitIn(worktree);
  return unifiedDiff(git, baseCommit, await workingTree(git), file);
}

export async function changesBetween(root: string, from: string, to: string): Promise<FileChange[]> {
  return fileChanges(await gitIn(root), from, to);
}

export async function diffBetween(root: string, from: string, to: string, file?: string): Promise<string> {
  return unifiedDiff(await gitIn(root), from, to, file);
}

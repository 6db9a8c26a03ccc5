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

/**
 * How the files of worktree `to` differ from those of worktree `from` (both of the repository at `root`),
 * each as it is now, uncommitted and untracked files included. A side given as a branch (its worktree is
 * gone) is read as the branch has it.
 */
export async function changesAcross(root: string, from: WorktreeOrBranch, to: WorktreeOrBranch): Promise<FileChange[]> {
  const [a, b] = await Promise.all([treeOf(from), treeOf(to)]);
  return fileChanges(await gitIn(root), a, b);
}

export async function diffAcross(root: string, from: WorktreeOrBranch, to: WorktreeOrBranch, file?: string): Promise<string> {
  const [a, b] = await Promise.all([treeOf(from), treeOf(to)]);
  return unifiedDiff(await gitIn(root), a, b, file);
}

export type WorktreeOrBranch = { worktree: string } | { branch: string };

async function treeOf(side: WorktreeOrBranch): Promise<string> {
  // The temporary index writes the tree into the object store the worktrees of a repository share.
  return 'worktree' in side ? workingTree(await gitIn(side.worktree)) : `${side.branch}^{tree}`;
}

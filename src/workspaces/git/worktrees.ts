import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitIn } from './git-command';

export interface AddWorktreeRequest {
  /** The repository's top level (resolveRepository's `root`). */
  root: string;
  /** Where the worktree goes; must not exist yet. */
  path: string;
  /** The new branch it checks out; must not exist yet. */
  branch: string;
  /** The commit the branch starts at (a full sha, as resolveCommit or snapshotWorkingState return). */
  startCommit: string;
}

/**
 * A new worktree of `root` at `path` on a new branch at `startCommit` (`git worktree add -b`, hardened: no
 * post-checkout hook, no smudge filter). The repository's own checked-out branch, index and files are not touched.
 */
export async function addWorktree({ root, path: where, branch, startCommit }: AddWorktreeRequest): Promise<void> {
  const target = path.resolve(where);
  if (fs.existsSync(target) || isLink(target)) throw new Error(`cannot make a worktree at ${target}: it already exists`);
  if (startCommit.startsWith('-') || branch.startsWith('-'))
    throw new Error(`cannot make a worktree of ${startCommit} on ${branch}: not a commit or a branch name`);
  const git = await gitIn(root);
  // git says "a branch named '<branch>' already exists" itself.
  await git(['worktree', 'add', '--quiet', '--no-track', '--no-guess-remote', '-b', branch, '--', target, startCommit]);
}

/**
 * Removes a worktree of `root` (`--force` twice: changes and a lock do not keep it) and, when asked, its
 * branch. A folder already gone is fine: its record is pruned instead.
 */
export async function removeWorktree(root: string, worktree: string, options: { deleteBranch: boolean }): Promise<void> {
  const target = path.resolve(worktree);
  const git = await gitIn(root);
  const branch = worktreeBranch((await git(['worktree', 'list', '--porcelain', '-z'])).stdout, target);
  if (fs.existsSync(target)) await git(['worktree', 'remove', '--force', '--force', '--', target]);
  else await git(['worktree', 'prune']);
  if (options.deleteBranch && branch) await git(['branch', '--delete', '--force', '--', branch]);
}

/** The branch `worktree list --porcelain -z` shows checked out at `target` (records: "worktree <path>\0...\0\0"). */
function worktreeBranch(listing: string, target: string): string | undefined {
  const real = realOrSame(target);
  for (const record of listing.split('\0\0')) {
    const lines = record.split('\0');
    const at = lines.find((line) => line.startsWith('worktree '))?.slice('worktree '.length);
    if (at === undefined || (at !== target && realOrSame(at) !== real)) continue;
    return lines.find((line) => line.startsWith('branch refs/heads/'))?.slice('branch refs/heads/'.length);
  }
  return undefined;
}

function realOrSame(where: string): string {
  try {
    return fs.realpathSync(where);
  } catch {
    return where;
  }
}

function isLink(where: string): boolean {
  try {
    return fs.lstatSync(where).isSymbolicLink();
  } catch {
    return false;
  }
}

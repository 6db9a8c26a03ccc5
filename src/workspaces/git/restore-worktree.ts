import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitIn } from './git-command';

/**
 * A worktree made again at `where` on its existing `branch` (`git worktree add`, hardened as every call): a
 * session whose worktree was removed goes on from everything its branch holds. A stale record of the old
 * folder is pruned first, so git does not refuse the path as still registered.
 */
export async function restoreWorktree(root: string, where: string, branch: string): Promise<void> {
  const target = path.resolve(where);
  if (fs.existsSync(target)) throw new Error(`cannot restore a worktree at ${target}: it already exists`);
  if (branch.startsWith('-')) throw new Error(`cannot restore a worktree on ${branch}: not a branch name`);
  const git = await gitIn(root);
  await git(['worktree', 'prune']);
  await git(['worktree', 'add', '--quiet', '--', target, branch]);
}

import { GitCommandError, gitIn } from './git-command';
import { commitWithChanges, type FileChange, fileChanges } from './tree-diff';
import { type CommitOptions, headState, workingTree } from './working-state';

export type MergeResult =
  | { outcome: 'merged'; commit: string; files: FileChange[] }
  | { outcome: 'up-to-date' }
  /** The merge is left in progress: markers in `conflicts`' files, for the lead to resolve and checkpoint. */
  | { outcome: 'conflicted'; conflicts: string[]; files: FileChange[] };

/**
 * A three-way merge of `branchOrCommit` into the worktree's branch, by git (ort), as a merge commit. The
 * worktree must be clean (the caller checkpoints it first). On conflict nothing is aborted: the files keep
 * git's markers and the merge stays in progress; `files` is then what the worktree holds against HEAD.
 */
export async function mergeBranch(
  worktree: string,
  branchOrCommit: string,
  message: string,
  options: CommitOptions & {
    /**
     * The caller committed everything in this worktree just before, under its own lock: the `git status` that
     * would refuse a dirty worktree (a full scan, ~100 ms on 10,000 files) is skipped. git still refuses to
     * overwrite anything a merge would touch.
     */
    checkpointedJustBefore?: boolean;
  } = {},
): Promise<MergeResult> {
  if (branchOrCommit.startsWith('-') || /[\n\0]/.test(branchOrCommit))
    throw new Error(`cannot merge ${JSON.stringify(branchOrCommit)}: not a branch or commit`);
  const git = await gitIn(worktree);
  const [status, before] = await Promise.all([
    options.checkpointedJustBefore
      ? Promise.resolve({ stdout: '' })
      : git(['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--ignore-submodules=none']),
    headState(git, [`${branchOrCommit}^{commit}`]),
  ]);
  const theirs = before.extra[0];
  if (!theirs) throw new Error(`cannot merge ${branchOrCommit} into ${worktree}: it is not a branch or commit of that repository`);
  if (before.mergeHead) throw new Error(`cannot merge ${branchOrCommit} into ${worktree}: a merge is already in progress there (checkpoint it first)`);
  if (status.stdout !== '') {
    const paths = status.stdout
      .split('\0')
      .filter(Boolean)
      .slice(0, 5)
      .map((entry) => entry.slice(3));
    throw new Error(`cannot merge ${branchOrCommit} into ${worktree}: it has uncommitted changes (${paths.join(', ')}): checkpoint it first`);
  }

  const merge = await git(
    [
      'merge',
      ...['--strategy=ort', '--no-ff', '--no-edit', '--no-stat', '--no-log', '--no-squash', '--no-autostash'],
      // The name as given (checked above to be a commit, never an option), so conflict markers say where from.
      ...['--no-verify', '--no-verify-signatures', '--no-gpg-sign', '--quiet', '-m', message, branchOrCommit],
    ],
    { identity: options.identity, allowExitCodes: [1] },
  );
  if (merge.exitCode === 0) {
    // The merge commit and what it brought in, in one process; HEAD unmoved means nothing was left to merge.
    const after = await commitWithChanges(git, 'HEAD');
    if (after.commit === before.head) return { outcome: 'up-to-date' };
    return { outcome: 'merged', commit: after.commit, files: after.files };
  }
  const after = await headState(git);
  // Exit 1 is a conflict only when git left the merge in progress; otherwise it refused (e.g. an untracked file in the way).
  if (!after.mergeHead) throw new GitCommandError('merge', worktree, merge.exitCode, merge.stderr || merge.stdout, merge.stdout);
  const [unmerged, tree] = await Promise.all([git(['ls-files', '--unmerged', '-z']), workingTree(git)]);
  // "<mode> <sha> <stage>\t<path>", one entry per stage present.
  const conflicts = [
    ...new Set(
      unmerged.stdout
        .split('\0')
        .filter(Boolean)
        .map((entry) => entry.slice(entry.indexOf('\t') + 1)),
    ),
  ];
  return { outcome: 'conflicted', conflicts, files: await fileChanges(git, before.tree, tree) };
}

import { type Git, GitCommandError, gitIn } from './git-command';
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
     * The caller committed everything in this worktree just before, under its own lock: the checks before the
     * merge (a `git status`, a full scan, and the name and merge-in-progress lookup) are skipped. git itself
     * still refuses a name that is no commit, a merge in progress, and overwriting anything a merge would touch.
     */
    checkpointedJustBefore?: boolean;
  } = {},
): Promise<MergeResult> {
  if (branchOrCommit.startsWith('-') || /[\n\0]/.test(branchOrCommit))
    throw new Error(`cannot merge ${JSON.stringify(branchOrCommit)}: not a branch or commit`);
  const git = await gitIn(worktree);
  // Checked here only when the caller did not just commit under its own lock (each check is a git process:
  // `status` a full scan). Skipped, git itself refuses a merge in progress or a name that is no commit.
  if (!options.checkpointedJustBefore) await checkBefore(git, branchOrCommit);

  const merge = await git(
    [
      'merge',
      ...['--strategy=ort', '--no-ff', '--no-edit', '--no-stat', '--no-log', '--no-squash', '--no-autostash'],
      // The name as given (never an option: refused above), so conflict markers say where from.
      ...['--no-verify', '--no-verify-signatures', '--no-gpg-sign', '-m', message, branchOrCommit],
    ],
    { identity: options.identity, allowExitCodes: [1] },
  );
  if (merge.exitCode === 0) {
    // Nothing to merge, no commit made: git says so (in English: LC_ALL=C, hardening.ts).
    if (/^Already up to date\.?$/m.test(merge.stdout)) return { outcome: 'up-to-date' };
    // The merge commit and what it brought in, in one process.
    const after = await commitWithChanges(git, 'HEAD');
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
  // A conflicted merge leaves HEAD where it was.
  return { outcome: 'conflicted', conflicts, files: await fileChanges(git, after.tree, tree) };
}

/** Refuses, with what to do, a worktree that is not clean or is mid-merge, and a name that is no commit. */
async function checkBefore(git: Git, branchOrCommit: string): Promise<void> {
  const [status, before] = await Promise.all([
    git(['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--ignore-submodules=none']),
    headState(git, [`${branchOrCommit}^{commit}`]),
  ]);
  const worktree = git.cwd;
  if (!before.extra[0]) throw new Error(`cannot merge ${branchOrCommit} into ${worktree}: it is not a branch or commit of that repository`);
  if (before.mergeHead) throw new Error(`cannot merge ${branchOrCommit} into ${worktree}: a merge is already in progress there (checkpoint it first)`);
  if (status.stdout !== '') {
    const paths = status.stdout
      .split('\0')
      .filter(Boolean)
      .slice(0, 5)
      .map((entry) => entry.slice(3));
    throw new Error(`cannot merge ${branchOrCommit} into ${worktree}: it has uncommitted changes (${paths.join(', ')}): checkpoint it first`);
  }
}

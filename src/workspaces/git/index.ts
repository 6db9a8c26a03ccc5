/**
 * The git layer of workspaces: worktrees, checkpoints, merges and diffs through the real `git`, hardened so
 * that nothing a repository names (hooks, filters, drivers, pagers, editors, helpers) runs on the host.
 */
export { blameOnBranch, blameSince, kindOnBranch, parseBlamePorcelain } from './blame';
export type { BlamedLine } from './blame';
export { changesAcross, changesBetween, changesSince, diffAcross, diffBetween, diffSince, type WorktreeOrBranch } from './changes';
export { folderSize } from './folder-size';
export { GitCommandError, gitIn, readRepositoryDrivers, runGit } from './git-command';
export type { Git, GitOutput, GitRunOptions } from './git-command';
export { SWITCHBOARD_IDENTITY } from './hardening';
export type { GitIdentity, RepositoryDrivers } from './hardening';
export { mergeBranch } from './merge';
export type { MergeResult } from './merge';
export { resolveCommit, resolveRepository } from './repository';
export type { FileChange } from './tree-diff';
export { checkpoint, snapshotWorkingState } from './working-state';
export type { CommitOptions } from './working-state';
export { WorkspaceRequestError } from './workspace-request.error';
export { addWorktree, removeWorktree } from './worktrees';
export type { AddWorktreeRequest } from './worktrees';
export { restoreWorktree } from './restore-worktree';

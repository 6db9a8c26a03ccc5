import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitCommandError, runGit } from './git-command';
import { NO_DRIVERS } from './hardening';
import { WorkspaceRequestError } from './workspace-request.error';

/**
 * The repository a request names, as the real path of a work tree's top level that is one of `allowedRoots`
 * or inside one. `..` and symlinks are resolved before the comparison, so neither can lead outside.
 */
export async function resolveRepository(allowedRoots: readonly string[], requested: string): Promise<{ root: string }> {
  const field = 'workspace.repository';
  const listed = `SWITCHBOARD_REPOSITORIES (allowed: ${allowedRoots.join(', ') || 'none'})`;
  let real: string;
  try {
    real = fs.realpathSync(path.resolve(requested));
  } catch {
    throw new WorkspaceRequestError(field, `workspace.repository ${requested} does not exist: give the path of a repository in ${listed}`);
  }
  const allowed = allowedRoots.flatMap((root) => {
    try {
      return [fs.realpathSync(path.resolve(root))];
    } catch {
      return []; // a listed folder that is gone allows nothing
    }
  });
  if (!allowed.some((root) => real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep))) {
    throw new WorkspaceRequestError(field, `workspace.repository ${requested} is not in ${listed}`);
  }
  if (!fs.statSync(real).isDirectory()) throw new WorkspaceRequestError(field, `workspace.repository ${requested} is not a folder`);

  // Only asks git where the work tree is: nothing in it reads a file's content, so no driver can run.
  const ask = async (what: string) => (await runGit(real, ['rev-parse', what], { drivers: NO_DRIVERS })).stdout.trim();
  let bare: string;
  try {
    bare = await ask('--is-bare-repository');
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    throw new WorkspaceRequestError(field, `workspace.repository ${requested} is not a git repository: ${error.message}`);
  }
  if (bare === 'true')
    throw new WorkspaceRequestError(field, `workspace.repository ${requested} is a bare repository: give a repository with a work tree`);
  let topLevel: string;
  try {
    topLevel = await ask('--show-toplevel');
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    throw new WorkspaceRequestError(field, `workspace.repository ${requested} is not the work tree of a git repository: ${error.message}`);
  }
  const top = fs.realpathSync(topLevel);
  if (top !== real) throw new WorkspaceRequestError(field, `workspace.repository ${requested} is inside the repository ${top}: give its top level`);
  return { root: real };
}

/** The full sha of `ref^{commit}` in the repository at `root` (default HEAD). */
export async function resolveCommit(root: string, ref = 'HEAD'): Promise<string> {
  // A ref is never an option: `--end-of-options` and a leading `-` refused keep it from being read as one.
  if (ref.startsWith('-') || ref.includes('\0') || ref.trim() === '')
    throw new WorkspaceRequestError('workspace.ref', `workspace.ref ${JSON.stringify(ref)} is not a ref`);
  const { stdout, exitCode } = await runGit(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], {
    drivers: NO_DRIVERS,
    allowExitCodes: [1, 128],
  });
  if (exitCode === 0) return stdout.trim();
  const head = await runGit(root, ['rev-parse', '--verify', '--quiet', 'HEAD'], { drivers: NO_DRIVERS, allowExitCodes: [1, 128] });
  if (head.exitCode !== 0) {
    throw new WorkspaceRequestError(
      'workspace.ref',
      `the repository ${root} has no commit yet: commit something first (workspace.ref ${ref} cannot be resolved)`,
    );
  }
  throw new WorkspaceRequestError('workspace.ref', `workspace.ref ${ref} is not a commit in ${root}: give a branch, tag or commit it has`);
}

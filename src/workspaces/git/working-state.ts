import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type FileChange, fileChanges } from './tree-diff';
import { type Git, gitIn } from './git-command';
import type { GitIdentity } from './hardening';

export interface CommitOptions {
  /** Author and committer of the commit; default "Switchboard" <switchboard@localhost>. */
  identity?: GitIdentity;
}

/** HEAD, its tree and MERGE_HEAD (undefined when no merge is in progress) of the worktree `git` runs in. */
export async function headState(
  git: Git,
  extra: readonly string[] = [],
): Promise<{ head: string; tree: string; mergeHead?: string; extra: Array<string | undefined> }> {
  // One process for all of them; a missing name is an answer ("<name> missing"), not a failure.
  const names = ['HEAD', 'HEAD^{tree}', 'MERGE_HEAD', ...extra];
  const { stdout } = await git(['cat-file', '--batch-check=%(objectname)'], { input: names.map((name) => `${name}\n`).join('') });
  const answers = stdout
    .split('\n')
    .slice(0, names.length)
    .map((line) => (/^[0-9a-f]{40,64}$/.test(line) ? line : undefined));
  const [head, tree, mergeHead] = answers;
  if (!head || !tree) throw new Error(`${git.cwd} has no commit checked out (HEAD does not name a commit)`);
  return { head, tree, ...(mergeHead ? { mergeHead } : {}), extra: answers.slice(3) };
}

/**
 * The tree of every file in the worktree as it is now (tracked changes, untracked files, deletions; ignored
 * files left out), written through a temporary index: the worktree's own index, HEAD and files stay as they
 * are. The temporary index starts as a copy of the real one, so unchanged files are not read again.
 */
export async function workingTree(git: Git): Promise<string> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-index-'));
  try {
    const index = path.join(temp, 'index');
    const own = path.resolve(git.cwd, (await git(['rev-parse', '--git-path', 'index'])).stdout.trim());
    try {
      fs.copyFileSync(own, index);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // no index yet: start empty
    }
    const env = { GIT_INDEX_FILE: index };
    await git(['add', '--all'], { env });
    return (await git(['write-tree'], { env })).stdout.trim();
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * A commit of the worktree's current files on top of its HEAD, made without moving HEAD or touching the index
 * or the files (what a child run starts from: its parent's state, uncommitted changes included). HEAD itself
 * when nothing differs from it.
 */
export async function snapshotWorkingState(worktree: string, message: string, options: CommitOptions = {}): Promise<string> {
  const git = await gitIn(worktree);
  const [tree, state] = await Promise.all([workingTree(git), headState(git)]);
  if (tree === state.tree) return state.head;
  return (await git(['commit-tree', '--no-gpg-sign', '-p', state.head, '-m', message, tree], { identity: options.identity })).stdout.trim();
}

/**
 * Commits everything that changed in the worktree (`add --all`) on its branch; undefined when nothing did. A
 * merge in progress (conflicts the lead resolved) is concluded by this commit, with both parents.
 */
export async function checkpoint(
  worktree: string,
  message: string,
  options: CommitOptions = {},
): Promise<{ commit: string; files: FileChange[] } | undefined> {
  const git = await gitIn(worktree);
  const [, state] = await Promise.all([git(['add', '--all']), headState(git)]);
  const tree = (await git(['write-tree'])).stdout.trim();
  if (state.mergeHead) {
    // The porcelain concludes a merge properly (both parents, MERGE_* files cleared); hooks are off (hardening.ts).
    await git(['commit', '--quiet', '--no-verify', '--no-gpg-sign', '--no-edit', '--cleanup=verbatim', '-m', message], { identity: options.identity });
    const { head } = await headState(git);
    return { commit: head, files: await fileChanges(git, state.head, head) };
  }
  if (tree === state.tree) return undefined;
  // What `git commit` does once the index is written, without its second scan of the worktree.
  const [files, commit] = await Promise.all([
    fileChanges(git, state.tree, tree),
    (async () => {
      const made = (await git(['commit-tree', '--no-gpg-sign', '-p', state.head, '-m', message, tree], { identity: options.identity })).stdout.trim();
      // Only if HEAD's branch still points where it did: a concurrent commit is an error, not lost.
      await git(['update-ref', '-m', `commit: ${message.split('\n')[0]}`, 'HEAD', made, state.head]);
      return made;
    })(),
  ]);
  return { commit, files };
}

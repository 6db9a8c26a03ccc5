import type { Git } from './git-command';

/** One file a change touched, as git's diff of two trees sees it. */
export interface FileChange {
  path: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed' | 'type-changed';
  /** Lines; 0 for a binary file (then `binary: true`). */
  additions: number;
  deletions: number;
  /** Where a renamed file was. */
  previousPath?: string;
  binary?: true;
}

/**
 * Options every diff of this module shares: plumbing (`diff-tree` ignores diff.* UI config such as noprefix,
 * relative, color), never an external diff or a textconv (repository drivers), renames found the same way for
 * the list of files and for the patch.
 */
const DIFF_OPTIONS = ['-r', '--no-ext-diff', '--no-textconv', '--no-color', '-M'] as const;

const STATUS: Record<string, FileChange['status']> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', T: 'type-changed', C: 'added' };

/** The files that differ between two tree-ishes (commits or trees) of the repository `git` runs in. */
export async function fileChanges(git: Git, from: string, to: string): Promise<FileChange[]> {
  // One process for both: `--raw` records first (status, paths), then `--numstat` ones (line counts).
  const { stdout } = await git(['diff-tree', ...DIFF_OPTIONS, '-z', '--raw', '--numstat', from, to, '--']);
  return parseRawNumstat(stdout);
}

/**
 * A commit and the files it changed against its first parent (a merge commit: what the merge brought in), in
 * one process: `diff-tree` given one commit prints its name first.
 */
export async function commitWithChanges(git: Git, commit: string): Promise<{ commit: string; files: FileChange[] }> {
  const { stdout } = await git(['diff-tree', ...DIFF_OPTIONS, '-z', '--raw', '--numstat', '--diff-merges=first-parent', commit, '--']);
  const end = stdout.indexOf('\0');
  const name = stdout.slice(0, end);
  if (end < 0 || !/^[0-9a-f]{40,64}$/.test(name)) throw new Error(`git diff-tree named no commit for ${commit} in ${git.cwd}`);
  return { commit: name, files: parseRawNumstat(stdout.slice(end + 1)) };
}

/** `diff-tree -z --raw --numstat` output as file changes, in git's (path) order. */
export function parseRawNumstat(output: string): FileChange[] {
  const tokens = output.split('\0');
  const changes: FileChange[] = [];
  const byPath = new Map<string, FileChange>();
  let i = 0;
  while (i < tokens.length) {
    const head = tokens[i++];
    if (head === '') continue;
    if (head.startsWith(':')) {
      // ":<old mode> <new mode> <old sha> <new sha> <status><score>" then one path, or two for R and C.
      const letter = head.slice(head.lastIndexOf(' ') + 1).charAt(0);
      const twoPaths = letter === 'R' || letter === 'C';
      const first = tokens[i++];
      const change: FileChange = { path: twoPaths ? tokens[i++] : first, status: STATUS[letter] ?? 'modified', additions: 0, deletions: 0 };
      if (letter === 'R') change.previousPath = first;
      changes.push(change);
      byPath.set(change.path, change);
    } else {
      // "<added>\t<deleted>\t<path>", or "<added>\t<deleted>\t" then the two paths of a rename; "-" for binary.
      const [added, deleted, inline] = head.split('\t');
      let target = inline;
      if (inline === '') {
        i++; // the old path
        target = tokens[i++];
      }
      const change = byPath.get(target);
      if (!change) continue;
      if (added === '-' || deleted === '-') change.binary = true;
      else {
        change.additions = Number(added);
        change.deletions = Number(deleted);
      }
    }
  }
  return changes;
}

/** The unified diff between two tree-ishes, of one file when `file` is given. */
export async function unifiedDiff(git: Git, from: string, to: string, file?: string): Promise<string> {
  const { stdout } = await git([
    'diff-tree',
    ...DIFF_OPTIONS,
    '-p',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    from,
    to,
    '--',
    ...(file === undefined ? [] : [file]),
  ]);
  return stdout;
}

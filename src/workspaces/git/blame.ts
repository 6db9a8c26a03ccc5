import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitCommandError, gitIn } from './git-command';

/** One line of a worktree's file as it is now, and the commit that last wrote it. */
export interface BlamedLine {
  /** 1-based, in the file as it is now. */
  line: number;
  text: string;
  /**
   * `base`: the line was there when the worktree started (or came with a commit the base already had);
   * `committed`: a commit after the base wrote it (`commit` names which); `uncommitted`: not committed yet.
   */
  origin: 'base' | 'committed' | 'uncommitted';
  commit?: string;
}

const UNCOMMITTED = /^0{40}$/;
const HEADER = /^([0-9a-f]{40}) \d+ (\d+)(?: \d+)?$/;

/**
 * `git blame` of `file` as it is in `worktree` now (uncommitted edits included), stopped at `baseCommit`: every
 * line the base already had is `base`, whichever commit before it wrote the line. Through merges too: a line a
 * child run wrote and its parent merged names the child's commit, as git follows the merge's parents.
 */
export async function blameSince(worktree: string, baseCommit: string, file: string): Promise<BlamedLine[]> {
  const git = await gitIn(worktree);
  const { stdout, stderr, exitCode } = await git(['blame', '--porcelain', `^${baseCommit}`, '--', file], { allowExitCodes: [128] });
  if (exitCode === 0) return parseBlamePorcelain(stdout);
  // A file no commit has yet (made since the last checkpoint): every line is uncommitted.
  if (/no such path .* in HEAD/.test(stderr)) return uncommittedLines(path.join(worktree, file));
  throw new GitCommandError('blame', worktree, exitCode, stderr);
}

/** A file's lines (a link's target, as git would store it) as not committed yet. */
async function uncommittedLines(file: string): Promise<BlamedLine[]> {
  const stat = await fs.promises.lstat(file);
  const text = stat.isSymbolicLink() ? await fs.promises.readlink(file) : await fs.promises.readFile(file, 'utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line, i) => ({ line: i + 1, text: line, origin: 'uncommitted' }));
}

/** The same of `file` as committed on `branch` (a worktree removed after the retention keeps its branch), run in the repository. */
export async function blameOnBranch(root: string, baseCommit: string, branch: string, file: string): Promise<BlamedLine[]> {
  const git = await gitIn(root);
  const { stdout } = await git(['blame', '--porcelain', `^${baseCommit}`, `refs/heads/${branch}`, '--', file]);
  return parseBlamePorcelain(stdout);
}

/** What `file` is on `branch`: a file (a blob: a file or a link) and its bytes, a folder, or missing. */
export async function kindOnBranch(root: string, branch: string, file: string): Promise<{ kind: 'file'; bytes: number } | { kind: 'folder' | 'missing' }> {
  const git = await gitIn(root);
  const object = `refs/heads/${branch}:${file}`;
  const { stdout, exitCode } = await git(['cat-file', '-t', object], { allowExitCodes: [128] });
  if (exitCode !== 0) return { kind: 'missing' };
  if (stdout.trim() === 'tree') return { kind: 'folder' };
  return { kind: 'file', bytes: Number((await git(['cat-file', '-s', object])).stdout.trim()) };
}

/** `git blame --porcelain` as lines: a header per line, a commit's details the first time it shows, then the text after a tab. */
export function parseBlamePorcelain(porcelain: string): BlamedLine[] {
  const boundaries = new Set<string>();
  const lines: BlamedLine[] = [];
  let current: { commit: string; line: number } | undefined;
  for (const raw of porcelain.split('\n')) {
    if (raw.startsWith('\t')) {
      if (!current) continue;
      const { commit, line } = current;
      const origin = UNCOMMITTED.test(commit) ? 'uncommitted' : boundaries.has(commit) ? 'base' : 'committed';
      lines.push({ line, text: raw.slice(1), origin, ...(origin === 'committed' ? { commit } : {}) });
      current = undefined;
      continue;
    }
    const header = HEADER.exec(raw);
    if (header) {
      current = { commit: header[1], line: Number(header[2]) };
      continue;
    }
    if (raw === 'boundary' && current) boundaries.add(current.commit);
  }
  return lines;
}

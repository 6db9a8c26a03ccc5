import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RepositoryDrivers } from './hardening';

/**
 * The drivers read for a folder, kept until one of the files git reads its config from changes. Reading them is
 * a `git config` process (~12 ms on 2 cores), which every workspace operation would otherwise pay first.
 *
 * A repository's config can change under us (an agent's `bash` may run `git config filter.x.smudge ...` in its
 * worktree), so an entry holds only while those files look exactly as they did: the repository's `config`, the
 * worktree's `config.worktree`, and a linked worktree's `.git` file (which says which repository it is). git rewrites a
 * config file through a lock file and a rename, so a write changes its inode; an edit in place changes its size
 * or times. Not cached: a config that includes other files (`include.*`, `includeIf.*`: what an included file
 * says can change without any of these), a read during which the files changed, a folder that is not the top
 * of a worktree.
 */
export class DriversCache {
  private readonly entries = new Map<string, { signature: string; drivers: RepositoryDrivers }>();

  constructor(private readonly maxEntries = 1_000) {}

  /** The drivers of `cwd` if they were read from files that have not changed since; undefined otherwise. */
  get(cwd: string, signature: string): RepositoryDrivers | undefined {
    const entry = this.entries.get(cwd);
    if (entry?.signature === signature) return entry.drivers;
    this.entries.delete(cwd);
    return undefined;
  }

  set(cwd: string, signature: string, drivers: RepositoryDrivers): void {
    this.entries.delete(cwd);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(cwd, { signature, drivers });
  }
}

/**
 * The files git reads the config of the worktree at `cwd` from (its own, not system or global, which
 * hardening.ts turns off): found from `cwd/.git` the way git does, without running it. Undefined when `cwd` is
 * not the top of a worktree or its `.git` is not what git itself writes.
 */
export function configFilesOf(cwd: string): string[] | undefined {
  const dotGit = path.join(cwd, '.git');
  try {
    const stat = fs.lstatSync(dotGit);
    // The folder itself is left out: its times change with every index write. Another repository put in its
    // place has another config file (another inode).
    if (stat.isDirectory()) return [path.join(dotGit, 'config'), path.join(dotGit, 'config.worktree')];
    if (!stat.isFile()) return undefined;
    // A linked worktree: ".git" is "gitdir: <its folder in the repository>", which holds "commondir".
    const pointer = /^gitdir: (.+)\n?$/.exec(fs.readFileSync(dotGit, 'utf8'));
    if (!pointer) return undefined;
    const gitDir = path.resolve(cwd, pointer[1]);
    const commonDir = path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
    return [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree'), dotGit];
  } catch {
    return undefined;
  }
}

/** inode, size and change/modify times of each file, "-" for a missing one. */
export function signatureOf(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const stat = fs.statSync(file, { bigint: true });
        return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}

import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Bytes of every file and symlink under `root` (apparent sizes; folders themselves not counted), for disk use in
 * /health. Walked with lstat: a symlink counts as itself and is never followed, in or out of the tree.
 * Asynchronous (each lstat and readdir on libuv's pool): a big worktree never holds the event loop, which the
 * model route shares. Iterative: no recursion depth to exhaust; entries that vanish mid-walk are skipped.
 */
export async function folderSize(root: string): Promise<number> {
  let bytes = 0;
  const pending = [root];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let stat: Awaited<ReturnType<typeof fs.lstat>>;
    try {
      stat = await fs.lstat(current);
    } catch {
      continue; // removed while we walked
    }
    if (!stat.isDirectory()) {
      bytes += stat.size;
      continue;
    }
    try {
      for (const name of await fs.readdir(current)) pending.push(path.join(current, name));
    } catch {
      // unreadable or gone: what it holds is not counted
    }
  }
  return bytes;
}

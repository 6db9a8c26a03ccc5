import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Bytes of every file and symlink under `root` (apparent sizes; folders themselves not counted), for disk use in
 * /health. Walked with lstat: a symlink counts as itself and is never followed, in or out of the tree.
 * Synchronous and iterative: no recursion depth to exhaust, and entries that vanish mid-walk are skipped.
 */
export function folderSize(root: string): number {
  let bytes = 0;
  const pending = [root];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch {
      continue; // removed while we walked
    }
    if (!stat.isDirectory()) {
      bytes += stat.size;
      continue;
    }
    try {
      for (const name of fs.readdirSync(current)) pending.push(path.join(current, name));
    } catch {
      // unreadable or gone: what it holds is not counted
    }
  }
  return bytes;
}

import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * issue 22 §2: a `read` approved by policy reaches the session's working directory only. The path is
 * resolved against it, then through symlinks (the nearest existing ancestor's real path, so a link
 * inside pointing out, `..`, or a file not there yet under such a link cannot escape), and compared
 * by whole path segments (`/work/dir-evil` is not inside `/work/dir`).
 */
export function readOutsideWorkingDirectory(requested: string | undefined, workingDirectory: string): string | undefined {
  if (requested === undefined || requested.length === 0) return 'the read request names no path';
  const root = realPath(workingDirectory);
  const target = realPath(path.resolve(workingDirectory, requested));
  const relative = path.relative(root, target);
  const inside = relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
  return inside ? undefined : `${requested} is outside the session's working directory ${workingDirectory}`;
}

/** The real path of `p`, or of its nearest existing ancestor with the rest appended. */
function realPath(p: string): string {
  const missing: string[] = [];
  let current = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...missing.reverse());
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

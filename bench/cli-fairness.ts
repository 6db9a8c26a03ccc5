import * as fs from 'node:fs';

/**
 * issue 41: is the SDK leg of bench:team-turn fair? Both legs' CLI processes as the kernel sees them
 * (/proc/<pid>/cmdline and /proc/<pid>/environ), each leg's own folders named alike, and what still
 * differs. Linux only: elsewhere the check says it could not look.
 */

export interface CliSeen {
  pid: number;
  cwd: string;
  argv: string[];
  env: Record<string, string>;
}

/** Each leg's own folders (its CLI home, its working directory) and the name they share in the comparison. */
export type Placeholders = Array<[path: string, name: string]>;

function nulSeparated(file: string): string[] {
  return fs.readFileSync(file, 'utf8').split('\0').filter(Boolean);
}

/** The direct children of a process (from each /proc/<pid>/stat's fourth field). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (field 2) is in parentheses and may hold spaces: the fields after it are split after the last ')'.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

/** The Copilot CLI a process spawned over stdio (the one child whose command line has --stdio). */
export function cliChildOf(parent: number): CliSeen | undefined {
  for (const pid of childrenOf(parent)) {
    try {
      const argv = nulSeparated(`/proc/${pid}/cmdline`);
      if (!argv.includes('--stdio')) continue;
      const env: Record<string, string> = {};
      for (const pair of nulSeparated(`/proc/${pid}/environ`)) {
        const at = pair.indexOf('=');
        if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
      }
      return { pid, cwd: fs.readlinkSync(`/proc/${pid}/cwd`), argv, env };
    } catch {
      // ended, or not ours to read
    }
  }
  return undefined;
}

function named(value: string, placeholders: Placeholders): string {
  let out = value;
  // Longest first: a working directory may sit inside a home.
  for (const [p, name] of [...placeholders].sort((a, b) => b[0].length - a[0].length)) out = out.split(p).join(name);
  return out;
}

export interface Fairness {
  fair: boolean;
  differences: string[];
}

/**
 * What differs between two CLIs once each leg's own folders carry the same name: the command lines
 * argument by argument, and every environment variable one has and the other lacks or sets otherwise.
 */
export function compareClis(a: { name: string; cli: CliSeen; placeholders: Placeholders }, b: typeof a): Fairness {
  const differences: string[] = [];
  const argvA = a.cli.argv.map((x) => named(x, a.placeholders));
  const argvB = b.cli.argv.map((x) => named(x, b.placeholders));
  if (argvA.join('\0') !== argvB.join('\0')) differences.push(`command line: ${a.name} [${argvA.join(' ')}] vs ${b.name} [${argvB.join(' ')}]`);
  const cwdA = named(a.cli.cwd, a.placeholders);
  const cwdB = named(b.cli.cwd, b.placeholders);
  if (cwdA !== cwdB) differences.push(`working directory: ${a.name} ${cwdA} vs ${b.name} ${cwdB}`);
  const names = [...new Set([...Object.keys(a.cli.env), ...Object.keys(b.cli.env)])].sort();
  for (const key of names) {
    const va = a.cli.env[key] === undefined ? undefined : named(a.cli.env[key], a.placeholders);
    const vb = b.cli.env[key] === undefined ? undefined : named(b.cli.env[key], b.placeholders);
    if (va !== vb)
      differences.push(
        `env ${key}: ${a.name} ${va === undefined ? '(unset)' : JSON.stringify(va)} vs ${b.name} ${vb === undefined ? '(unset)' : JSON.stringify(vb)}`,
      );
  }
  return { fair: differences.length === 0, differences };
}

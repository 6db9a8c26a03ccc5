/**
 * Self time of a V8 CPU profile (`node --cpu-prof`), summed by function and by file: where a bench
 * spends its time, readable without DevTools.
 *
 *   node -r @swc-node/register bench/cpu-profile-summary.ts <file.cpuprofile | dir> [top=25] [--skip-ms=N] [--until-ms=N] [--inclusive=src/]
 *
 * --skip-ms leaves out the first N ms of the profile (start-up: module loading, compiling), --until-ms
 * what comes after N ms (one phase of a bench); --inclusive
 * also lists total (self + callees) time of the functions whose file starts with the given prefix.
 *
 * A directory takes its largest .cpuprofile (the busiest process). Files are grouped by package under
 * node_modules, by path under src/, and as `(node)` for Node's own code; `(garbage collector)`,
 * `(program)` and `(idle)` stay as V8 names them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

interface Options {
  top: number;
  /** Samples in the first skipMs of the profile are left out, and those after untilMs. */
  skipMs: number;
  untilMs?: number;
  /** List inclusive time of functions whose file group starts with this. */
  inclusive?: string;
}

/** A short name for where a function lives. */
export function fileGroup(url: string, root: string): string {
  if (url === '') return '(native/V8)';
  if (url.startsWith('node:')) return '(node)';
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + 'node_modules/'.length).split('/');
    return `npm:${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  return path.relative(root, file) || file;
}

function top(entries: Map<string, number>, total: number, count: number): string[] {
  return [...entries]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
}

const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);

export function summarise(profile: CpuProfile, root: string, options: Options): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const fileOf = (n: ProfileNode) => fileGroup(n.callFrame.url, root);
  const nameOf = (n: ProfileNode) => {
    const { functionName, url, lineNumber } = n.callFrame;
    return `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''} [${fileOf(n)}]`;
  };
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let at = 0;
  let total = 0;
  let idle = 0;
  for (let i = 0; i < samples.length; i++) {
    at += deltas[i] ?? 0;
    // Each sample is charged the time until the next one.
    const us = deltas[i + 1] ?? 0;
    const node = byId.get(samples[i]);
    if (!node || at < options.skipMs * 1000 || (options.untilMs !== undefined && at > options.untilMs * 1000)) continue;
    total += us;
    if (node.callFrame.functionName === '(idle)') idle += us;
    add(byFunction, nameOf(node), us);
    add(byFile, fileOf(node), us);
    if (options.inclusive === undefined) continue;
    const seen = new Set<string>();
    for (let n: ProfileNode | undefined = node; n; n = byId.get(parentOf.get(n.id) ?? -1)) {
      if (!fileOf(n).startsWith(options.inclusive)) continue;
      const name = nameOf(n);
      if (seen.has(name)) continue;
      seen.add(name);
      add(inclusive, name, us);
    }
  }
  return [
    `sampled ${(total / 1000).toFixed(0)} ms from ${options.skipMs} ms${options.untilMs === undefined ? '' : ` to ${options.untilMs} ms`}, idle ${((idle / total) * 100).toFixed(1)}%`,
    '',
    'self time by function:',
    ...top(byFunction, total, options.top),
    '',
    'self time by file / package:',
    ...top(byFile, total, options.top),
    ...(options.inclusive === undefined
      ? []
      : ['', `total time (self + callees) of functions in ${options.inclusive}*:`, ...top(inclusive, total, options.top)]),
  ].join('\n');
}

function main(): void {
  const args = process.argv.slice(2);
  const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const [target, countArg] = args.filter((a) => !a.startsWith('--'));
  if (!target) throw new Error('usage: cpu-profile-summary.ts <file.cpuprofile | dir> [top]');
  let file = target;
  if (fs.statSync(target).isDirectory()) {
    const profiles = fs
      .readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(target, f));
    if (profiles.length === 0) throw new Error(`no .cpuprofile in ${target}`);
    file = profiles.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  }
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  console.log(file);
  console.log(
    summarise(profile, path.resolve(__dirname, '..'), {
      top: countArg ? Number(countArg) : 25,
      skipMs: Number(flag('skip-ms') ?? 0),
      untilMs: flag('until-ms') === undefined ? undefined : Number(flag('until-ms')),
      inclusive: flag('inclusive'),
    }),
  );
}

if (require.main === module) main();

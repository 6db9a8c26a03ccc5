/**
 * The workspaces git layer (src/workspaces/git) against the bare git commands it wraps, on a big repository.
 *
 *   npm run bench:workspaces
 *
 * A repository of 10,000 files of 10 KB (100 folders of 100, about 100 MB, one commit) in a temp folder, then,
 * in rounds of one of ours and one bare, which goes first alternating (the disk is still writing back what the
 * round before removed, and that must not land on one side only):
 *   (a) addWorktree vs `git worktree add -b <branch> <path> <commit>`
 *   (b) checkpoint after a one-file edit vs `git add -A` + `git commit -q -m`
 *   (c) mergeBranch of a child branch with 10 changed files vs `git merge --no-ff --no-edit`
 * Both sides are started the same way (node's child_process, no shell). Ours pays for what the bare command
 * does not do: reading the repository's drivers (one `git config`), the hardening overrides, and listing the
 * changed files (a `diff-tree`) or checking that the worktree is clean (a `status`). Nothing is asserted: the
 * issue's targets are printed beside the figures.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { addWorktree, checkpoint, mergeBranch, removeWorktree } from '../src/workspaces/git';
import { percentile } from './figures';

const FILES = 10_000;
const FOLDERS = 100;
const FILE_BYTES = 10 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const MERGED_FILES = 10;

/** Issue 42's targets: p50 of ours, and ours/bare at p50. */
const TARGETS = {
  'worktree start': { p50Ms: 150 },
  checkpoint: { p50Ms: 40 },
  merge: { p50Ms: 100 },
} as const;
const MAX_RATIO = 1.2;

const run = promisify(execFile);
const BARE_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@localhost',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@localhost',
};

/** The bare command as a caller without this module would run it. */
async function bare(cwd: string, ...args: string[]): Promise<void> {
  await run('git', args, { cwd, env: BARE_ENV, maxBuffer: 256 * 1024 * 1024 });
}

async function time(operation: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await operation();
  return performance.now() - started;
}

/**
 * One round: both sides timed, ours first in even rounds and the bare command first in odd ones; `after` (not
 * timed) runs after each side, e.g. to undo a merge.
 */
async function pair(
  round: number,
  ours: () => Promise<unknown>,
  bareSide: () => Promise<unknown>,
  after: () => Promise<unknown> = async () => undefined,
): Promise<[number, number]> {
  const timed = async (operation: () => Promise<unknown>) => {
    const ms = await time(operation);
    await after();
    return ms;
  };
  if (round % 2 === 0) {
    const oursMs = await timed(ours);
    return [oursMs, await timed(bareSide)];
  }
  const bareMs = await timed(bareSide);
  return [await timed(ours), bareMs];
}

/** Pseudo-random printable text (incompressible enough that git's zlib works as on source code), made fast. */
function generateRepository(root: string): void {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789(){};=+-*/';
  let seed = 42;
  const pool = Buffer.alloc(FILE_BYTES * 64);
  for (let i = 0; i < pool.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pool[i] = i % 80 === 79 ? 10 : alphabet.charCodeAt(seed % alphabet.length);
  }
  for (let folder = 0; folder < FOLDERS; folder++) {
    const dir = path.join(root, 'src', `module-${String(folder).padStart(2, '0')}`, 'lib');
    fs.mkdirSync(dir, { recursive: true });
    for (let file = 0; file < FILES / FOLDERS; file++) {
      const n = folder * (FILES / FOLDERS) + file;
      const offset = ((n * 7919) % 63) * FILE_BYTES;
      const header = Buffer.from(`// file ${n}\n`);
      fs.writeFileSync(path.join(dir, `file-${file}.ts`), Buffer.concat([header, pool.subarray(offset, offset + FILE_BYTES - header.length)]));
    }
  }
}

interface Row {
  name: keyof typeof TARGETS;
  ours: number[];
  bare: number[];
}

async function benchWorktreeStart(root: string, base: string, dir: string): Promise<Row> {
  const row: Row = { name: 'worktree start', ours: [], bare: [] };
  for (let round = -1; round < ROUNDS; round++) {
    const ours = path.join(dir, `ours-${round}`);
    const theirs = path.join(dir, `bare-${round}`);
    const [oursMs, bareMs] = await pair(
      round,
      () => addWorktree({ root, path: ours, branch: `bench/ours-${round}`, startCommit: base }),
      () => bare(root, 'worktree', 'add', '-q', '-b', `bench/bare-${round}`, theirs, base),
    );
    if (round >= 0) {
      row.ours.push(oursMs);
      row.bare.push(bareMs);
    }
    await removeWorktree(root, ours, { deleteBranch: true });
    await removeWorktree(root, theirs, { deleteBranch: true });
  }
  return row;
}

async function benchCheckpoint(root: string, base: string, dir: string): Promise<Row> {
  const row: Row = { name: 'checkpoint', ours: [], bare: [] };
  const worktree = path.join(dir, 'checkpoints');
  await addWorktree({ root, path: worktree, branch: 'bench/checkpoints', startCommit: base });
  const edit = (round: number, side: string) => fs.appendFileSync(path.join(worktree, 'src/module-42/lib/file-7.ts'), `// ${side} ${round}\n`);
  for (let round = -1; round < ROUNDS; round++) {
    // The edit (one append, microseconds) is inside the timing on both sides.
    const [oursMs, bareMs] = await pair(
      round,
      () => {
        edit(round, 'ours');
        return checkpoint(worktree, `checkpoint ${round}`);
      },
      async () => {
        edit(round, 'bare');
        await bare(worktree, 'add', '-A');
        await bare(worktree, 'commit', '-q', '-m', `bare ${round}`);
      },
    );
    if (round >= 0) {
      row.ours.push(oursMs);
      row.bare.push(bareMs);
    }
  }
  await removeWorktree(root, worktree, { deleteBranch: true });
  return row;
}

async function benchMerge(root: string, base: string, dir: string): Promise<Row> {
  const row: Row = { name: 'merge', ours: [], bare: [] };
  // The child: 10 files changed on a branch of its own.
  const child = path.join(dir, 'child');
  await addWorktree({ root, path: child, branch: 'bench/child', startCommit: base });
  for (let i = 0; i < MERGED_FILES; i++)
    fs.appendFileSync(path.join(child, `src/module-${String(i * 9).padStart(2, '0')}/lib/file-${i}.ts`), `// child ${i}\n`);
  await checkpoint(child, 'child work');
  // The parent has work of its own, so the merge is a real three-way one.
  const parent = path.join(dir, 'parent');
  await addWorktree({ root, path: parent, branch: 'bench/parent', startCommit: base });
  fs.appendFileSync(path.join(parent, 'src/module-99/lib/file-99.ts'), '// parent\n');
  const start = (await checkpoint(parent, 'parent work'))?.commit ?? base;
  const reset = () => bare(parent, 'reset', '-q', '--hard', start);
  for (let round = -1; round < ROUNDS; round++) {
    // As Workspaces.mergeIntoParent calls it: right after the parent's checkpoint, under the same lock.
    const [oursMs, bareMs] = await pair(
      round,
      () => mergeBranch(parent, 'bench/child', `merge ${round}`, { checkpointedJustBefore: true }),
      () => bare(parent, 'merge', '-q', '--no-ff', '--no-edit', 'bench/child'),
      reset,
    );
    if (round >= 0) {
      row.ours.push(oursMs);
      row.bare.push(bareMs);
    }
  }
  await removeWorktree(root, parent, { deleteBranch: true });
  await removeWorktree(root, child, { deleteBranch: true });
  return row;
}

function printResults(rows: Row[]): void {
  const header = ['operation', 'ours p50', 'ours p99', 'bare p50', 'bare p99', 'ratio p50', 'target', 'verdict'];
  const lines = rows.map((row) => {
    const [oursP50, oursP99, bareP50, bareP99] = [percentile(row.ours, 50), percentile(row.ours, 99), percentile(row.bare, 50), percentile(row.bare, 99)];
    const ratio = oursP50 / bareP50;
    const target = TARGETS[row.name];
    const verdict = `${oursP50 <= target.p50Ms ? 'met' : 'MISSED'} / ${ratio <= MAX_RATIO ? 'met' : 'MISSED'}`;
    return [
      row.name,
      oursP50.toFixed(1),
      oursP99.toFixed(1),
      bareP50.toFixed(1),
      bareP99.toFixed(1),
      `${ratio.toFixed(2)}x`,
      `<= ${target.p50Ms} ms, <= ${MAX_RATIO}x`,
      verdict,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 || i >= 6 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  lines.forEach((cells) => console.log(line(cells)));
  console.log('\nms; verdict: p50 target / ratio target. p99 of so few rounds is close to the slowest one.');
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-workspaces-'));
  try {
    const root = path.join(dir, 'repo');
    fs.mkdirSync(root);
    let started = performance.now();
    generateRepository(root);
    await bare(root, 'init', '-q', '-b', 'main');
    await bare(root, 'add', '-A');
    await bare(root, 'commit', '-q', '-m', 'generated');
    const base = (await run('git', ['rev-parse', 'HEAD'], { cwd: root })).stdout.trim();
    const { stdout: version } = await run('git', ['--version']);
    const cpus = os.cpus();
    console.log(`node           ${process.version} (${process.platform}/${process.arch})`);
    console.log(`cpu            ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown'}, load average ${os.loadavg()[0].toFixed(2)}`);
    console.log(`git            ${version.trim()}`);
    console.log(
      `repository     ${FILES} files of ${FILE_BYTES / 1024} KB in ${FOLDERS} folders, made in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    console.log(`temp dir       ${dir}`);
    console.log(`rounds         ${ROUNDS} per operation (+1 warm-up), ours and bare alternating\n`);

    started = performance.now();
    const rows = [await benchWorktreeStart(root, base, dir), await benchCheckpoint(root, base, dir), await benchMerge(root, base, dir)];
    printResults(rows);
    console.log(`\nmeasured in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

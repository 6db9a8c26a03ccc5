#!/usr/bin/env node
// `npm test`: every test tier, each timed. Prints `tier <name>: <seconds> s` as each tier ends and a table at
// the end; stops at the first tier that fails and exits with its code. Tiers run side by side while the CPUs
// they use fit the machine's share given to them (CPUS, default 2: the CI machine's cores): tsc, ESLint and
// Prettier are one thread each and can overlap, the jest and Playwright tiers spread over both cores and run
// alone. A tier starts only after the tiers it needs passed (the console's GraphQL types before what reads them).
// `node scripts/test-tiers.mjs unit int-e2e` runs only the tiers named (a need not named must already hold,
// e.g. web/src/gql generated for tsc-web). Plain Node, no dependency: it runs before anything is built.
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import * as path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const CPUS = Number(process.env.CPUS ?? 2);

/**
 * In the order they start when they can. `cpus`: the cores a tier keeps busy; `needs`: tiers that must pass first.
 * The tiers that read the generated GraphQL types (tsc -p web, ESLint's web block, vite) need `generate`.
 */
const TIERS = [
  // ESLint's type-aware rules build a TypeScript program per tsconfig, the service's and the console's: one
  // process each (the longest first), so they use both cores, and neither builds the other's program.
  // The service's files import nothing generated, so its lint starts at once.
  { name: 'eslint-api', cpus: 1, needs: [], command: ['npx', 'eslint', '--ignore-pattern', 'web/', '.'] },
  { name: 'generate', cpus: 1, needs: [], command: ['npm', 'run', '--silent', 'web:generate'] },
  { name: 'eslint-web', cpus: 1, needs: ['generate'], command: ['npx', 'eslint', 'web'] },
  { name: 'tsc-api', cpus: 1, needs: [], command: ['npx', 'tsc', '--noEmit', '-p', 'tsconfig.json'] },
  { name: 'tsc-web', cpus: 1, needs: ['generate'], command: ['npx', 'tsc', '-p', 'web'] },
  { name: 'prettier', cpus: 1, needs: [], command: ['npx', 'prettier', '--check', '--log-level', 'warn', '.'] },
  // What `npm start` builds (the service's dist/ and the console's web/dist/, each with the stamp of its inputs), by
  // npm start's own script: the console tier serves this bundle, and the npm-start e2e finds both up to date instead
  // of building them again in the busiest tier. Its console build writes the generated types again: it waits for
  // every tier that reads them.
  { name: 'build', cpus: 1, needs: ['generate', 'eslint-web', 'tsc-web', 'prettier'], command: ['node', 'scripts/build-changed.mjs'] },
  {
    name: 'unit',
    cpus: 2,
    needs: ['eslint-api', 'eslint-web', 'tsc-api', 'tsc-web', 'prettier'],
    command: ['npx', 'jest', '--selectProjects', 'unit', '--maxWorkers=2'],
  },
  { name: 'int-e2e', cpus: 2, needs: ['unit', 'build'], command: ['npx', 'jest', '--selectProjects', 'integration', 'e2e', '--maxWorkers=2'] },
  { name: 'console', cpus: 2, needs: ['int-e2e', 'build'], command: ['npx', 'playwright', 'test', '-c', 'web/playwright.config.ts'] },
];

const only = process.argv.slice(2);
const unknown = only.filter((name) => !TIERS.some((tier) => tier.name === name));
if (unknown.length > 0) {
  process.stderr.write(`test-tiers: no tier ${unknown.join(', ')} (tiers: ${TIERS.map((t) => t.name).join(', ')})\n`);
  process.exit(2);
}
// Named tiers keep their order among themselves; a need left out is taken as met.
const selected =
  only.length > 0
    ? TIERS.filter((tier) => only.includes(tier.name)).map((tier) => ({ ...tier, needs: tier.needs.filter((need) => only.includes(need)) }))
    : TIERS;

const started = Date.now();
/** name → { seconds, code } once ended. */
const ended = new Map();
/** name → { child, startedAt, output, cpus } while running. */
const running = new Map();
let failed;

const seconds = (ms) => (ms / 1000).toFixed(1);

function startTier(tier) {
  // Alone on the machine, a tier writes straight to the terminal; beside others, its output is kept and
  // printed whole when it ends, so two tiers' lines never interleave.
  const alone = tier.cpus >= CPUS;
  process.stdout.write(`tier ${tier.name}: started (${tier.command.join(' ')})\n`);
  const child = spawn(tier.command[0], tier.command.slice(1), {
    cwd: ROOT,
    stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    // Its own process group: a failure elsewhere stops it and everything it started.
    detached: true,
  });
  const entry = { child, startedAt: Date.now(), output: [], cpus: tier.cpus };
  if (!alone) {
    child.stdout.on('data', (chunk) => entry.output.push(chunk));
    child.stderr.on('data', (chunk) => entry.output.push(chunk));
  }
  running.set(tier.name, entry);
  child.on('error', (error) => entry.output.push(Buffer.from(`${error.message}\n`)));
  child.on('close', (code, signal) => {
    running.delete(tier.name);
    const elapsed = Date.now() - entry.startedAt;
    const exitCode = code ?? (signal ? 128 : 1);
    const stopped = failed !== undefined && exitCode !== 0;
    ended.set(tier.name, { seconds: seconds(elapsed), code: exitCode, stopped });
    // A tier stopped because another failed says nothing of its own: its output would bury the failure's.
    if (entry.output.length > 0 && !stopped) process.stdout.write(Buffer.concat(entry.output));
    if (!stopped) {
      process.stdout.write(`tier ${tier.name}: ${seconds(elapsed)} s${exitCode === 0 ? '' : ` (failed, exit code ${exitCode})`}\n`);
    }
    if (exitCode !== 0 && failed === undefined) {
      failed = { name: tier.name, code: exitCode };
      for (const other of running.values()) stopGroup(other.child);
    }
    schedule();
  });
}

function stopGroup(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

function schedule() {
  if (failed === undefined) {
    let busy = [...running.values()].reduce((sum, entry) => sum + entry.cpus, 0);
    for (const tier of selected) {
      if (ended.has(tier.name) || running.has(tier.name)) continue;
      if (!tier.needs.every((need) => ended.get(need)?.code === 0)) continue;
      // A tier wider than the free share waits; one wider than the machine starts once nothing runs.
      if (busy > 0 && busy + tier.cpus > CPUS) continue;
      startTier(tier);
      busy += tier.cpus;
    }
  }
  if (running.size === 0) finish();
}

function finish() {
  const rows = selected.map((tier) => {
    const result = ended.get(tier.name);
    const status = !result ? 'not run' : result.code === 0 ? 'passed' : result.stopped ? 'stopped' : `failed (${result.code})`;
    return [tier.name, result ? `${result.seconds} s` : '-', status];
  });
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length), ['tier', 'time', 'result'][i].length));
  const line = (cells) => `| ${cells.map((cell, i) => (i === 1 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ')} |`;
  process.stdout.write(
    `\n${[line(['tier', 'time', 'result']), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n')}\n` +
      `total: ${seconds(Date.now() - started)} s (wall clock; tiers overlap)\n`,
  );
  process.exit(failed ? failed.code : 0);
}

// Ctrl-C or a CI runner's SIGTERM stops every tier's process group before this script ends.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    failed ??= { name: signal, code: 130 };
    for (const entry of running.values()) stopGroup(entry.child);
  });
}

schedule();

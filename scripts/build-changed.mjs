#!/usr/bin/env node
// `npm start`'s build: builds the service (nest build → dist/) and the console (schema, codegen, vite →
// web/dist/) only when their inputs changed since their last build. Each output keeps a SHA-256 of the
// inputs it was built from beside it (`.inputs.sha256`): a content hash, so a checkout, a copy or a
// clock that moves back never leaves a stale build, and touching a file without changing it never
// rebuilds. SWITCHBOARD_FORCE_BUILD=1 builds both anyway. Plain Node: it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const STAMP = '.inputs.sha256';

/** What each output is built from (files or folders, relative to the repository), and how. */
const TARGETS = [
  {
    name: 'service',
    output: 'dist',
    inputs: ['src', 'nest-cli.json', 'tsconfig.json', 'package-lock.json'],
    command: ['npx', ['nest', 'build']],
  },
  {
    name: 'console',
    output: 'web/dist',
    // The GraphQL schema the console's types come from is emitted from the service's sources.
    inputs: [
      'web/src',
      'web/public',
      'web/index.html',
      'web/graphiql.html',
      'web/codegen.ts',
      'web/vite.config.mts',
      'web/tsconfig.json',
      'scripts/emit-graphql-schema.ts',
      'src',
      'package-lock.json',
    ],
    command: ['npm', ['run', 'build:web']],
  },
];

/** Generated from other inputs (codegen's output): hashing it would make every build look changed. */
const GENERATED = new Set(['web/src/gql']);

function filesOf(relative) {
  if (GENERATED.has(relative)) return [];
  const absolute = path.join(ROOT, relative);
  const stat = fs.statSync(absolute, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [relative];
  return fs
    .readdirSync(absolute)
    .sort()
    .flatMap((entry) => filesOf(path.posix.join(relative, entry)));
}

function inputsHash(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesOf)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const force = process.env.SWITCHBOARD_FORCE_BUILD === '1';
for (const target of TARGETS) {
  const stampFile = path.join(ROOT, target.output, STAMP);
  const wanted = inputsHash(target.inputs);
  const built = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : undefined;
  if (!force && built === wanted) {
    console.log(`build: ${target.name} is up to date (${target.output}/ was built from these sources), skipped`);
    continue;
  }
  console.log(`build: ${target.name} ${built ? 'changed' : 'not built yet'}, building ${target.output}/`);
  const [command, args] = target.command;
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: the ${target.name} build failed (${result.signal ?? `exit ${result.status}`})`);
    process.exit(result.status || 1);
  }
  // Written only after a build that succeeded, from the inputs hashed before it started: a file changed
  // during the build makes the next start build again.
  fs.writeFileSync(stampFile, `${wanted}\n`);
}
